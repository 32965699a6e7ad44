"""Radio-free test harness for ztprov: private D-Bus, BlueZ and NetworkManager mocks, emulated devices.

Entry point: Tests/Harness/harness.py (up | down | status | received | calls). Run everything with
Debian's /usr/bin/python3, which has python3-dbusmock, python3-dbus, python3-gi and python3-bleak.
"""
