"""Sponsorship workflows, one module per concern (docs/sponsors.md): organisations,
applications (and their agreements), billing, lifecycle (approval, cancellation and its
undo, renewals), moderation; transitions holds the one state-change helper they share."""
