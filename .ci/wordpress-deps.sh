#!/bin/sh
# What `npm run test:wordpress` needs: Debian's WordPress, PHP with its extensions, PHPUnit, zip,
# and MariaDB answering on 127.0.0.1:3306. Installs only what is missing; starts MariaDB if down.
set -eu
PACKAGES="wordpress php-cli php-mysql php-curl php-xml php-mbstring php-gd php-intl php-zip phpunit zip"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "wordpress-deps: installing$missing"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
if ! mariadb -h 127.0.0.1 -u root -e 'SELECT 1' >/dev/null 2>&1; then
  echo "wordpress-deps: starting MariaDB"
  (service mariadb start || service mysql start || (mysqld_safe >/dev/null 2>&1 &)) >/dev/null 2>&1 || true
  i=0
  until mariadb -h 127.0.0.1 -u root -e 'SELECT 1' >/dev/null 2>&1; do
    i=$((i + 1))
    [ "$i" -gt 30 ] && { echo "wordpress-deps: MariaDB did not start" >&2; exit 1; }
    sleep 1
  done
fi
echo "wordpress-deps: ready ($(dpkg-query -W -f='${Version}' wordpress))"
