"""Benchmark workflows, one module per concern (docs/benchmarks.md): importing (an upload
into runs), review (publishing and rejecting drafts), tokens (personal API tokens);
permissions (who may submit and publish), measurements (raw output read into checked
measurements) and limits (what the columns hold) are the helpers they share."""
