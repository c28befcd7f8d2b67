"""Release workflows, one module per concern (docs/releases.md): publishing, subscriptions
to announcements, importing (catalogue and archive), mirroring."""
