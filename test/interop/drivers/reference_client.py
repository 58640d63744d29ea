#!/usr/bin/env python3
"""Drives an RCP server with the reference Python client (rcp-ref sdk/python) through every
method the rcp-gen demo engine advertises, and prints one JSON report on stdout:
{"capabilities": [...], "<method>": {"ok": <what the client returned>} | {"error": {"code", "message"}}}.

usage: reference_client.py <sdk/python dir> stdio <server argv...>
       reference_client.py <sdk/python dir> http <base url>
"""
import json
import sys

sys.path.insert(0, sys.argv[1])

import rcp  # noqa: E402  (the reference SDK, found through the path above)


def main():
    mode, target = sys.argv[2], sys.argv[3:]
    client = rcp.connect_stdio(target) if mode == "stdio" else rcp.connect_http(target[0])
    report = {"capabilities": sorted(client.capabilities)}

    def call(method, action):
        try:
            report[method] = {"ok": action()}
        except rcp.RcpError as error:
            report[method] = {"error": {"code": error.code, "message": error.message}}

    call("embed", lambda: client.embed(["galaxy nebula"]))
    call("embed/sparse", lambda: client.embed_sparse(["galaxy nebula", "sourdough"]))
    call("rerank", lambda: client.rerank("telescope galaxy", ["a broth simmers", "the telescope observes a galaxy"]))
    call("retrieve", lambda: client.search("compost for tomatoes", 3))
    call("query/transform", lambda: client.transform("What is a DB index?", "rewrite"))
    call("index/add", lambda: client.index_add({"documents": [{"id": "interop-python", "text": "a wombat digs"}]}))
    call("index/delete", lambda: client.index_delete({"ids": ["interop-python"]}))
    call("info", client.info)
    call("ping", lambda: client.ping("python"))
    client.shutdown()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
