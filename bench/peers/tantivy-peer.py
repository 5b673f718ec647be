"""Tantivy (the Rust search library, through its PyPI package) as the bench's ingestion peer.

python tantivy-peer.py <catalog.ndjson> <queries.json>: reads the very lines the bench pushes to
us (untimed), then, timed until searchable: parses each line, adds the product's text fields to
an index in a temporary directory, commits and reloads the searcher; then answers the queries one
at a time (top 10). Prints one JSON line, as bench/peers/peer-js.ts does.
"""

import json
import re
import resource
import sys
import tempfile
import time

import tantivy

FIELDS = ["title", "brand", "description", "product_type", "product_highlight", "product_detail", "color", "material"]


def text(value):
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(text(v) for v in value)
    if isinstance(value, dict):
        return " ".join(text(v) for v in value.values())
    return str(value)


def main():
    catalog_file, queries_file = sys.argv[1], sys.argv[2]
    with open(catalog_file, encoding="utf-8") as f:
        lines = [line for line in f.read().split("\n") if line]
    with open(queries_file, encoding="utf-8") as f:
        queries = json.load(f)
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("id", stored=True, tokenizer_name="raw")
    for field in FIELDS:
        builder.add_text_field(field, stored=False)
    schema = builder.build()
    with tempfile.TemporaryDirectory(prefix="commerce-bench-tantivy-") as directory:
        index = tantivy.Index(schema, path=directory)
        started = time.perf_counter()
        writer = index.writer()
        for line in lines:
            product = json.loads(line)
            data = product["data"]
            doc = {"id": product["id"]}
            for field in FIELDS:
                doc[field] = text(data.get(field))
            writer.add_document(tantivy.Document(**doc))
        writer.commit()
        writer.wait_merging_threads()
        index.reload()
        searcher = index.searcher()
        index_seconds = time.perf_counter() - started
        latencies = []
        hits = 0
        for query in queries:
            asked = time.perf_counter()
            # Words only: the query parser's syntax (quotes, colons, +/-) is not the shopper's.
            words = " ".join(re.findall(r"\w+", query))
            if words:
                parsed = index.parse_query(words, FIELDS)
                hits += len(searcher.search(parsed, 10).hits)
            latencies.append((time.perf_counter() - asked) * 1000)
    latencies.sort()

    def at(p):
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] if latencies else float("nan")

    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({
        "engine": "tantivy",
        "documents": len(lines),
        "indexSeconds": index_seconds,
        "p50": at(0.5),
        "p99": at(0.99),
        "hits": hits,
        "rssMb": rss_mb,
    }))


main()
