"""Shared fixtures: the pack, every three-card hand, seeded random hands."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import prial


@pytest.fixture(scope="session")
def all_three_card_hands() -> np.ndarray:
    """All 22,100 three-card hands of the 52-card pack, uint8 (22100, 3)."""
    return np.array(list(itertools.combinations(range(52), 3)), dtype=np.uint8)


@pytest.fixture(scope="session")
def brag() -> prial.Evaluator:
    return prial.Evaluator()


def random_hands(rows: int, width: int, seed: int, pack: int = 52) -> np.ndarray:
    """Seeded uniformly random hands of distinct cards."""
    from prial._bench import random_hands as make

    return make(rows, width, seed, pack)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)


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
