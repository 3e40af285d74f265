# Sourced by the test scripts that make a virtual environment from /usr/bin/python3:
# Debian's Python makes virtual environments only with python3-venv (ensurepip), which
# ensure_python_venv installs when it is missing.
ensure_python_venv() {
  /usr/bin/python3 -c 'import ensurepip, venv' >/dev/null 2>&1 && return 0
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing python3-venv"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq python3-venv >/dev/null
}
