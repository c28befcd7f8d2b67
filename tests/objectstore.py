"""An S3-compatible server for the tests: moto's server mode, a real HTTP endpoint that
boto3 (through django-storages) talks to as it would to a real store."""

import copy
import secrets
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import boto3

ROOT = Path(__file__).resolve().parents[1]
MOTO_SERVER = ROOT / ".venv" / "bin" / "moto_server"
# The policy docs/SCALING.md gives the public bucket: anyone may read its objects.
PUBLIC_POLICY = ROOT / "deploy" / "s3" / "public-bucket-policy.json"
KEYS = {"aws_access_key_id": "test-access-key", "aws_secret_access_key": "test-secret-key"}
REGION = "us-east-1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_moto_server():
    """(process, endpoint URL) of a moto server answering on a free local port."""
    port = free_port()
    process = subprocess.Popen(
        [str(MOTO_SERVER), "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(endpoint, timeout=1).close()
            return process, endpoint
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"moto_server did not answer on {endpoint}") from None
            time.sleep(0.2)


def client(endpoint):
    return boto3.client("s3", endpoint_url=endpoint, region_name=REGION, **KEYS)


def object_storages(file_storages, endpoint) -> tuple[dict, dict]:
    """settings.FILE_STORAGES pointed at two new buckets of ``endpoint`` (created here),
    and the bucket names {"public": ..., "private": ...}."""
    s3 = client(endpoint)
    buckets = {kind: f"{kind}-{secrets.token_hex(6)}" for kind in ("public", "private")}
    for bucket in buckets.values():
        s3.create_bucket(Bucket=bucket)
    policy = PUBLIC_POLICY.read_text().replace("PUBLIC_BUCKET", buckets["public"])
    s3.put_bucket_policy(Bucket=buckets["public"], Policy=policy)
    storages = copy.deepcopy(file_storages)
    for alias, kind in (("default", "public"), ("private", "private")):
        storages["object"][alias]["OPTIONS"].update(
            endpoint_url=endpoint,
            region_name=REGION,
            access_key=KEYS["aws_access_key_id"],
            secret_key=KEYS["aws_secret_access_key"],
            addressing_style="path",
            bucket_name=buckets[kind],
        )
    return storages, buckets
