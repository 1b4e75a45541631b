"""The gRPC service ``prial.v1.Prial`` behind ``prial serve``.

One concern a module:

- ``options``: ``ServeOptions``, the options of ``prial serve``;
- ``servicer``: ``PrialService``, one thin method per RPC;
- ``calls``: a call's record and the mapping of errors to statuses;
- ``convert``: prial's values to and from the prial.v1 messages (shared
  with ``prial.client``);
- ``registration``: the service's names and method handlers;
- ``auth`` and ``tls``: bearer tokens and TLS credentials;
- ``health``: standard health checking, its Watch streams bounded;
- ``observability``: metrics and the per-call log;
- ``heap``: giving freed memory back;
- ``process``: one server process; ``supervisor``: ``--processes N``;
- ``lifecycle``: what both share, free of gRPC.

``prial.server`` re-exports what a program that embeds the server needs.
"""
