from benchmarks.importers import hyperfine, jmh, sysbench, table, ycsb
from benchmarks.importers.base import ImportFailed, Parsed

# Detection order matters: the wide table accepts almost anything with commas.
IMPORTERS = {"sysbench": sysbench, "jmh": jmh, "hyperfine": hyperfine, "ycsb": ycsb, "table": table}


def detect(text: str) -> str:
    for name, module in IMPORTERS.items():
        if module.looks_like(text):
            return name
    raise ImportFailed("the format was not recognised; choose the importer explicitly", 1)


def parse(text: str, importer: str = "", parameters: dict | None = None) -> Parsed:
    name = importer or detect(text)
    if name not in IMPORTERS:
        raise ImportFailed(f"unknown importer {name!r}")
    module = IMPORTERS[name]
    points = module.parse(text, parameters)
    metadata = module.metadata(text) if hasattr(module, "metadata") else {}
    return Parsed(name, module.VERSION, points, metadata)
