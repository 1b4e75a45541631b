# The prial gRPC service (README, "Deploying"): the first stage builds the
# wheels, the second is a slim runtime with prial installed from them and
# nothing else of the build.  From the repository root:
#   docker build -t prial --build-arg REVISION="$(git rev-parse HEAD)" .
# Through a private package index, with its CA (a build secret, kept out of
# every layer):
#   docker build --build-arg PIP_INDEX_URL=https://pypi.example/simple \
#     --secret id=pip_ca,src=/etc/ssl/certs/ca-certificates.crt -t prial .
#   docker run --rm -p 127.0.0.1:50051:50051 -p 127.0.0.1:9100:9100 \
#     --ulimit nofile=65536:65536 prial
# (an image cannot set its open-files limit: the server raises its soft
# limit to the hard one the run gives it; docs/service.md, "Limits").

# Both stages start from the same image, so that the extension built in the
# first runs on the same C++ runtime (libstdc++) in the second.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
# A C++17 compiler; CMake, Ninja, pybind11 and grpcio-tools come from PyPI as
# the build's requirements (pyproject.toml), as on any machine.
RUN apt-get update \
 && apt-get install -y --no-install-recommends g++=4:12.2.0-3 \
 && rm -rf /var/lib/apt/lists/*
# Where pip looks for packages (ARG values reach RUN as variables).
ARG PIP_INDEX_URL=https://pypi.org/simple
WORKDIR /src
COPY . .
# Everything from the lock files (deploy/locks, tools/lock.sh), each file
# checked against its hash: the build's tools, then the wheels of the
# server's dependencies, then prial's own wheel built with those tools, so
# that the runtime stage installs exactly these without reaching an index.
RUN --mount=type=secret,id=pip_ca,required=false \
    if [ -s /run/secrets/pip_ca ]; then export PIP_CERT=/run/secrets/pip_ca; fi \
 && pip install --no-cache-dir --require-hashes -r deploy/locks/build.txt \
 && pip wheel --no-cache-dir --require-hashes --wheel-dir /wheels -r deploy/locks/server.txt \
 && pip wheel --no-cache-dir --no-deps --no-build-isolation --wheel-dir /wheels .

FROM ${PYTHON_IMAGE}
# What the image is (OCI annotations): its version is prial's (pyproject.toml;
# tests/test_container.py holds them equal), its revision the commit built.
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="prial" \
      org.opencontainers.image.description="gRPC evaluation service for Brag and its relatives" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="https://github.com/prial-dev/prial" \
      org.opencontainers.image.licenses="MIT"
# The wheels are mounted for the install only: no layer keeps them.
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-index --find-links /wheels /wheels/prial-*.whl \
 && groupadd --system --gid 10001 prial \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin prial
# Metrics on by default: a variable, so that PRIAL_METRICS_PORT= (empty)
# turns them off without a new command.
ENV PRIAL_METRICS_PORT=9100
# A plain docker stop waits 10 s before SIGKILL: 8 s of grace (drain 0)
# lets a server with a call still open exit 0 within it (drain + grace + 1).
ENV PRIAL_GRACE=8
# A numeric user, for Kubernetes' runAsNonRoot to verify.
USER 10001:10001
EXPOSE 50051 9100
# Health through the standard gRPC health service: prial call health exits 0
# only while the server answers SERVING (a draining one says NOT_SERVING).
# The shell form, to follow a PRIAL_PORT given to the container (DL3025 is
# about the signals a shell keeps from the command, which a check has none of).
# hadolint ignore=DL3025
HEALTHCHECK --interval=30s --timeout=10s --start-period=15s --retries=3 \
  CMD prial call --timeout 5 --target "127.0.0.1:${PRIAL_PORT:-50051}" health
# The exec form: prial serve is PID 1 itself, with no shell in between to
# swallow docker stop's SIGTERM, so it drains (calls in flight finish within
# --grace) and exits 0.
CMD ["prial", "serve", "--host", "0.0.0.0"]
