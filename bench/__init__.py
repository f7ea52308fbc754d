"""Benchmark scripts: each measures (the scripts that make data or train are in tools/).

Run each as a module from the repository root, e.g. `.venv/bin/python -m bench.go_moves`
(docs/benchmarks.md has the latest results and their commands). The scripts that speak GTP
import bench.gtp_client; the ones that start servers bench._server."""
