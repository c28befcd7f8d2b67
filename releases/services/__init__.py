"""Release workflows, one module per concern (docs/releases.md): publishing, subscriptions
to announcements, catalogue and archive import, mirrors."""
