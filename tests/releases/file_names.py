"""The names of the files the ``demo_like`` fixture (conftest.py) publishes, for the tests
that look for them on the download page."""

LINUX = "mariadb-11.8.9-linux-systemd-x86_64.tar.gz"
MSI = "mariadb-12.3.3-winx64.msi"
