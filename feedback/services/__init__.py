"""Workflows of the feedback app, one module per concern (docs/feedback.md): intake
(checking and storing a report on the request path), processing (parsing stored reports
into rows, reprocessing, test-traffic rules) and retention (monthly partitions, pruning)."""
