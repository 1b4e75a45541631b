"""Shared fixtures: the pack, every three-card hand, legal showdown tables,
a gRPC server and its client."""

from __future__ import annotations

import argparse
import itertools
import signal
import zlib

import numpy as np
import pytest
from hypothesis import strategies as st

import prial

from .bestof_reference import all_hands

# A suite started in the background of a script (``.ci/run &``) inherits
# SIGINT ignored, and so would every command it starts; the tests that press
# Ctrl-C on a command need it delivered, as at a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def one_in(text: str) -> int:
    """--sample's N: a whole number of at least 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return n


def pytest_addoption(parser):
    # The sanitizer run and the other interpreters' runs of CI repeat tests
    # the main run has already passed: a sample of them finds what differs
    # there at a fraction of the time.
    parser.addoption("--sample", type=one_in, default=1, metavar="N",
                     help="run one test in N, chosen by a checksum of its id: the same tests on every run, "
                          "interpreter and worker (default 1: every test)")


def sampled(nodeid: str, n: int) -> bool:
    return zlib.crc32(nodeid.encode()) % n == 0


def pytest_collection_modifyitems(config, items):
    n = config.getoption("sample")
    if n > 1:
        left_out = [item for item in items if not sampled(item.nodeid, n)]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if sampled(item.nodeid, n)]


@pytest.fixture(scope="session")
def all_three_card_hands() -> np.ndarray:
    """All 22,100 three-card hands of the 52-card pack, uint8 (22100, 3)."""
    return np.array(list(itertools.combinations(range(52), 3)), dtype=np.uint8)


@pytest.fixture(scope="session")
def four_card_hands() -> np.ndarray:
    """Every four-card hand of the 52-card pack."""
    return all_hands(52, 4)


@pytest.fixture(scope="session")
def five_card_hands() -> np.ndarray:
    """Every five-card hand of the 52-card pack."""
    return all_hands(52, 5)


@pytest.fixture(scope="session")
def brag() -> prial.Evaluator:
    return prial.Evaluator()


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)


@st.composite
def legal_showdowns(draw):
    """(players, options for prial.showdown): legal showdowns of every shape.
    Sees (a legal seer) and agreed showdowns, covers, chips or none, three
    to five cards as text or indices, jokers and wild cards."""
    rules = draw(st.sampled_from([None, prial.Rules(preset="teen_patti"), prial.Rules(wild="deuces"),
                                  prial.Rules(jokers=2)]))
    n = draw(st.integers(2, 6))
    width = draw(st.sampled_from([3, 4, 5]))
    deck = draw(st.permutations(range(52 + (2 if rules is not None and rules.jokers else 0))))
    coverer = draw(st.none() | st.integers(0, n - 1)) if n >= 3 else None
    players = []
    for i in range(n):
        cards = list(deck[width * i:width * (i + 1)])
        stake = 0 if i == coverer else draw(st.integers(0, 1000) | st.just(2**40))  # a coverer's chips are in old_pot
        players.append(prial.Player(f"p{i}", prial.format_cards(cards) if draw(st.booleans()) else cards,
                                    draw(st.booleans()), stake))
    options = {"rules": rules, "cards_per_hand": width, "pot": draw(st.integers(0, 500)), "seer": None,
               "coverer": None, "old_pot": 0}
    contenders = [p for i, p in enumerate(players) if i != coverer]
    if len(contenders) == 2 and draw(st.booleans()):
        a, b = contenders
        options["seer"] = a.id if (a.blind or not b.blind) else b.id  # an open player may not see a blind one
    if coverer is not None:
        options.update(coverer=players[coverer].id, old_pot=draw(st.integers(0, 500)))
    return players, options


@pytest.fixture(scope="session")
def grpc_server():
    """One ``prial serve`` subprocess on 127.0.0.1 (port 0) for the session."""
    from .grpc_helpers import ServerProcess

    with ServerProcess() as server:
        yield server


@pytest.fixture(scope="session")
def grpc_client(grpc_server):
    from prial.client import Client

    with Client(grpc_server.target, timeout=30) as client:
        yield client


@pytest.fixture(scope="session")
def secure_server(tmp_path_factory):
    """A server with TLS, client certificates from its CA and a bearer token.
    ``.files``: the PEM files (``ca.pem``, ``client.pem``, ``client.key``,
    ``stranger.pem`` from another CA), the server's token file ``tokens``
    (token ``secret``) and ``wrong-token``."""
    pytest.importorskip("cryptography")
    from .grpc_helpers import ServerProcess
    from .test_grpc_security import Authority

    directory = tmp_path_factory.mktemp("pki")
    ca, stranger = Authority("prial test CA"), Authority("some other CA")
    server_cert, server_key = ca.issue("localhost", server=True)
    client_cert, client_key = ca.issue("backend-1", server=False)
    files = {"ca.pem": ca.pem, "stranger.pem": stranger.pem, "server.pem": server_cert, "server.key": server_key,
             "client.pem": client_cert, "client.key": client_key,
             "tokens": b"# the server's file serves the client too\nsecret\n", "wrong-token": b"guess\n"}
    for name, data in files.items():
        (directory / name).write_bytes(data)
    with ServerProcess("--tls-cert", str(directory / "server.pem"), "--tls-key", str(directory / "server.key"),
                       "--tls-client-ca", str(directory / "ca.pem"),
                       "--auth-token-file", str(directory / "tokens")) as server:
        server.files = directory
        yield server
