#!/usr/bin/env bash
# apt-install.sh PACKAGE... - installs Debian packages that the build or the
# tests need (as root). Another apt or dpkg holding the package lock (a fresh
# machine runs its own updates at boot) is waited for: apt's own wait of
# APT_LOCK_WAIT seconds (default 300), then up to three tries 30 s apart.
# When it still fails it says why and how to go on, and exits 1.
set -uo pipefail
if [ "$(id -u)" != 0 ]; then
  echo "could not install $*: installing packages needs root; install them (apt-get install $*) and run make again" >&2
  exit 1
fi
wait_s=${APT_LOCK_WAIT:-300}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
apt_get() { apt-get -o DPkg::Lock::Timeout="$wait_s" -qq "$@" >>"$log" 2>&1; }
for try in 1 2 3; do
  : >"$log" # this try's messages only
  if apt_get update && apt_get install -y "$@"; then
    exit 0
  fi
  grep -q 'Could not get lock' "$log" || break
  [ "$try" -lt 3 ] && echo "apt-install: the package lock is held by another apt or dpkg; trying again in 30 s" >&2 && sleep 30
done
echo "could not install $*; apt said:" >&2
tail -n 5 "$log" >&2
echo "install them (apt-get install $*), or wait for the apt or dpkg that holds the lock to finish, then run make again" >&2
exit 1
