"""A raw HTTP/2 client (the h2 package) for the tests of what a hostile
or broken client can send a server: frames as the test says, not as gRPC
would."""

from __future__ import annotations

import socket
import time

import h2.config
import h2.connection
import h2.events
import h2.settings


def grpc_headers(path: str, extra: list[tuple[str, str]] | tuple[()] = ()) -> list[tuple[str, str]]:
    return [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "127.0.0.1"),
            ("content-type", "application/grpc"), ("te", "trailers"), *extra]


class RawConnection:
    """An HTTP/2 connection driven frame by frame: streams opened with
    HEADERS and never given a DATA frame, headers past any limit, pings."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        # Headers sent as they are: h2's Huffman coding, in Python, took 27 s for a 500 kB value.
        encode = self.conn.encoder.encode
        self.conn.encoder.encode = lambda headers, huffman=True: encode(headers, huffman=False)
        self.conn.initiate_connection()
        self.flush()

    def flush(self) -> None:
        self.sock.sendall(self.conn.data_to_send())

    def open_idle_streams(self, count: int, method: str = "Evaluate") -> list[int]:
        streams = []
        for _ in range(count):
            stream = self.conn.get_next_available_stream_id()
            self.conn.send_headers(stream, grpc_headers(f"/prial.v1.Prial/{method}"))
            streams.append(stream)
        self.flush()
        return streams

    def call(self, path: str, message: bytes, extra: list[tuple[str, str]]) -> int:
        """A unary call with headers ``extra`` added; its stream."""
        stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(stream, grpc_headers(path, extra))
        self.conn.send_data(stream, b"\0" + len(message).to_bytes(4, "big") + message, end_stream=True)
        self.flush()
        return stream

    def events(self, seconds: float, until_stream: int | None = None) -> list:
        """Every HTTP/2 event the server sends within ``seconds``, until it
        closes, or until ``until_stream`` ends."""
        found, deadline = [], time.monotonic() + seconds
        while time.monotonic() < deadline and not any(
                isinstance(e, h2.events.StreamEnded) and e.stream_id == until_stream for e in found):
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                break
            if not data:
                break
            found += self.conn.receive_data(data)
            self.flush()
        return found

    def settings(self, seconds: float = 5) -> dict[int, int]:
        """The SETTINGS the server sent (waited for)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for event in self.events(0.2):
                if isinstance(event, h2.events.RemoteSettingsChanged):
                    return {key: change.new_value for key, change in event.changed_settings.items()}
        raise AssertionError("no SETTINGS from the server")

    def close(self) -> None:
        self.sock.close()


def status_of(events: list, stream: int) -> dict[str, str]:
    """The gRPC status headers a stream got (empty if none)."""
    return {k.decode(): v.decode() for e in events
            if isinstance(e, (h2.events.TrailersReceived, h2.events.ResponseReceived)) and e.stream_id == stream
            for k, v in e.headers if k.startswith(b"grpc-")}


MAX_HEADER_LIST_SIZE = h2.settings.SettingCodes.MAX_HEADER_LIST_SIZE
MAX_CONCURRENT_STREAMS = h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS
