# Sourced by the scripts that build or test on every supported CPython
# (tools/pythons.sh, tools/wheels.sh).
#
# pyenv's shims run python3.X only for the versions selected: select every
# installed one, the current selection first so that the names the shims
# already answered keep their meaning.
if command -v pyenv >/dev/null; then
  PYENV_VERSION="$(pyenv version-name):$(pyenv versions --bare --skip-aliases | paste -sd: -)"
  export PYENV_VERSION
fi

# The compiler cache the builds use where it is installed: without it each
# interpreter compiles the whole core again (minutes, not a failure).
if ! command -v ccache >/dev/null; then
  echo "+ apt-get install ccache"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ccache; } \
    >/dev/null || echo "apt-get install ccache failed (no Debian mirror?): building without a compiler cache" >&2
fi
