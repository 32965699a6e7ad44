'''python-dbusmock template: a small BlueZ 5.66 look-alike with a BluFi GATT profile, for ztprov's BlueZTests.

Test fixture only, until the shared harness template (Tests/Harness/ztharness/bluez_blufi_template.py) lands.
Parameters (JSON, all optional):
  {"adapters": [{"name": "hci0", "address": "00:AA:BB:CC:DD:00", "powered": true}],
   "devices": [{"adapter": "hci0", "address": "24:0A:C4:12:34:56", "name": "BLUFI_DEVICE", "rssi": -52,
                "uuids": ["0000ffff-0000-1000-8000-00805f9b34fb"], "mtu": 185, "known": false,
                "advertise_delay_ms": 100, "resolve_delay_ms": 50,
                "connect_fail_first_n": 0, "connect_error": "org.bluez.Error.Failed:le-connection-abort-by-local",
                "in_progress_first_n": 0}]}
Control on "/" (interface org.bluez.Mock): ForceDisconnect(address) drops the link as a radio would.
Device logic: CTRL GET_VERSION (type 0x1c) is answered on FF02 with DATA VERSION 1.3 (41 04 <seq> 02 01 03).
'''

import socket

import dbus
from gi.repository import GLib

from dbusmock import OBJECT_MANAGER_IFACE, mockobject

BUS_NAME = 'org.bluez'
MAIN_OBJ = '/'
SYSTEM_BUS = True
IS_OBJECT_MANAGER = True

ADAPTER = 'org.bluez.Adapter1'
DEVICE = 'org.bluez.Device1'
SERVICE = 'org.bluez.GattService1'
CHARACTERISTIC = 'org.bluez.GattCharacteristic1'
MOCK = 'org.bluez.Mock'
FILTER_KEYS = {'UUIDs', 'RSSI', 'Pathloss', 'Transport', 'DuplicateData', 'Discoverable', 'Pattern'}
BLUFI_SERVICE = '0000ffff-0000-1000-8000-00805f9b34fb'

STATE = {'devices': {}, 'filters': {}, 'acquired': {}}


def error(name, message=''):
    return dbus.exceptions.DBusException(message, name=name)


def manager():
    return STATE['manager']


def emit_added(path):
    manager().EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}',
                         [dbus.ObjectPath(path), mockobject.objects[path].props])


def remove_object(path):
    interfaces = list(mockobject.objects[path].props.keys())
    manager().RemoveObject(path)
    manager().EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'oas', [dbus.ObjectPath(path), interfaces])


def device_path(spec):
    return '/org/bluez/%s/dev_%s' % (spec.get('adapter', 'hci0'), spec['address'].replace(':', '_'))


def later(milliseconds, action):
    def fire():
        action()
        return False
    GLib.timeout_add(milliseconds, fire)


def load(mock, parameters):
    STATE['manager'] = mock
    mock.AddMethods(MOCK, [('ForceDisconnect', 's', '', force_disconnect)])
    for adapter in parameters.get('adapters', [{'name': 'hci0', 'address': '00:AA:BB:CC:DD:00', 'powered': True}]):
        path = '/org/bluez/' + adapter['name']
        mock.AddObject(path, ADAPTER, {
            'Address': dbus.String(adapter['address']),
            'AddressType': dbus.String('public'),
            'Name': dbus.String('ztprov-test'),
            'Alias': dbus.String('ztprov-test'),
            'Powered': dbus.Boolean(adapter.get('powered', True)),
            'PowerState': dbus.String(adapter.get('power_state', 'on' if adapter.get('powered', True) else 'off')),
            'Discovering': dbus.Boolean(False),
            'Roles': dbus.Array(['central', 'peripheral'], signature='s'),
        }, [
            ('SetDiscoveryFilter', 'a{sv}', '', set_discovery_filter),
            ('StartDiscovery', '', '', start_discovery),
            ('StopDiscovery', '', '', stop_discovery),
            ('RemoveDevice', 'o', '', remove_device),
        ])
        emit_added(path)
    for spec in parameters.get('devices', [{}]):
        spec = dict({'adapter': 'hci0', 'address': '24:0A:C4:12:34:56', 'name': 'BLUFI_DEVICE', 'rssi': -52,
                     'uuids': [BLUFI_SERVICE], 'mtu': 185, 'advertise_delay_ms': 100, 'resolve_delay_ms': 50,
                     'connect_fail_first_n': 0, 'in_progress_first_n': 0,
                     'connect_error': 'org.bluez.Error.Failed:le-connection-abort-by-local'}, **spec)
        STATE['devices'][device_path(spec)] = {'spec': spec, 'connect_attempts': 0, 'seq': 0}
        if spec.get('known'):
            add_device(device_path(spec))


def add_device(path):
    spec = STATE['devices'][path]['spec']
    manager().AddObject(path, DEVICE, {
        'Address': dbus.String(spec['address']),
        'AddressType': dbus.String('public'),
        'Name': dbus.String(spec['name']),
        'Alias': dbus.String(spec['name']),
        'Adapter': dbus.ObjectPath('/org/bluez/' + spec['adapter']),
        'RSSI': dbus.Int16(spec['rssi']),
        'UUIDs': dbus.Array(spec['uuids'], signature='s'),
        'ManufacturerData': dbus.Dictionary({dbus.UInt16(0x02e5): dbus.Array([1, 2], signature='y', variant_level=1)},
                                            signature='qv'),
        'ServiceData': dbus.Dictionary({}, signature='sv'),
        'Paired': dbus.Boolean(False),
        'Trusted': dbus.Boolean(False),
        'Connected': dbus.Boolean(False),
        'ServicesResolved': dbus.Boolean(False),
    }, [
        ('Connect', '', '', connect),
        ('Disconnect', '', '', disconnect),
    ])
    emit_added(path)


def set_discovery_filter(self, options):
    unknown = set(options.keys()) - FILTER_KEYS
    if unknown:
        raise error('org.bluez.Error.InvalidArguments', 'unknown filter keys %s' % sorted(unknown))
    STATE['filters'][self.path] = dict(options)


def matches_filter(adapter, spec):
    options = STATE['filters'].get(adapter, {})
    uuids = [str(u).lower() for u in options.get('UUIDs', [])]
    if uuids and not set(uuids) & {u.lower() for u in spec['uuids']}:
        return False
    pattern = str(options.get('Pattern', ''))
    return not pattern or spec['address'].startswith(pattern) or spec['name'].startswith(pattern)


def start_discovery(self):
    if self.props[ADAPTER]['Discovering']:
        raise error('org.bluez.Error.InProgress', 'Operation already in progress')
    self.UpdateProperties(ADAPTER, {'Discovering': dbus.Boolean(True)})
    for path, state in STATE['devices'].items():
        spec = state['spec']
        if '/org/bluez/' + spec['adapter'] == self.path and matches_filter(self.path, spec):
            later(spec['advertise_delay_ms'], lambda path=path, adapter=self.path: advertise(path, adapter))


def advertise(path, adapter):
    if not mockobject.objects[adapter].props[ADAPTER]['Discovering']:
        return
    if path in mockobject.objects:
        rssi = STATE['devices'][path]['spec']['rssi'] - 1
        mockobject.objects[path].UpdateProperties(DEVICE, {'RSSI': dbus.Int16(rssi)})
    else:
        add_device(path)


def stop_discovery(self):
    if not self.props[ADAPTER]['Discovering']:
        raise error('org.bluez.Error.Failed', 'No discovery started')
    self.UpdateProperties(ADAPTER, {'Discovering': dbus.Boolean(False)})


def remove_device(self, path):
    if path not in mockobject.objects:
        raise error('org.bluez.Error.DoesNotExist', 'Does Not Exist')
    drop_link(str(path))
    remove_object(str(path))


def connect(self):
    state = STATE['devices'][self.path]
    spec = state['spec']
    state['connect_attempts'] += 1
    if state['connect_attempts'] <= spec['in_progress_first_n']:
        raise error('org.bluez.Error.InProgress', 'In Progress')
    if state['connect_attempts'] <= spec['in_progress_first_n'] + spec['connect_fail_first_n']:
        name, _, message = spec['connect_error'].partition(':')
        raise error(name, message)
    if self.props[DEVICE]['Connected']:
        return
    state['seq'] = 0
    self.UpdateProperties(DEVICE, {'Connected': dbus.Boolean(True)})
    later(spec['resolve_delay_ms'], lambda: resolve(self.path))


def resolve(path):
    if path not in mockobject.objects or not mockobject.objects[path].props[DEVICE]['Connected']:
        return
    mtu = dbus.UInt16(STATE['devices'][path]['spec']['mtu'])
    service = path + '/service0028'
    manager().AddObject(service, SERVICE, {
        'UUID': dbus.String(BLUFI_SERVICE), 'Primary': dbus.Boolean(True), 'Device': dbus.ObjectPath(path)}, [])
    emit_added(service)
    for name, uuid, flags in (('char0029', '0000ff01-0000-1000-8000-00805f9b34fb', ['write']),
                              ('char002b', '0000ff02-0000-1000-8000-00805f9b34fb', ['read', 'notify'])):
        characteristic = service + '/' + name
        manager().AddObject(characteristic, CHARACTERISTIC, {
            'UUID': dbus.String(uuid), 'Service': dbus.ObjectPath(service),
            'Flags': dbus.Array(flags, signature='s'), 'MTU': mtu,
            'Value': dbus.Array([], signature='y'), 'Notifying': dbus.Boolean(False),
            **({'NotifyAcquired': dbus.Boolean(False)} if 'notify' in flags else {}),
        }, [
            ('AcquireNotify', 'a{sv}', 'hq', acquire_notify),
            ('WriteValue', 'aya{sv}', '', write_value),
            ('ReadValue', 'a{sv}', 'ay', lambda self, options: self.props[CHARACTERISTIC]['Value']),
            ('StartNotify', '', '', lambda self: notifying(self, True)),
            ('StopNotify', '', '', lambda self: notifying(self, False)),
        ])
        emit_added(characteristic)
    mockobject.objects[path].UpdateProperties(DEVICE, {'ServicesResolved': dbus.Boolean(True)})


def notifying(self, on):
    self.UpdateProperties(CHARACTERISTIC, {'Notifying': dbus.Boolean(on)})


def write_value(self, value, options):
    if str(options.get('type', 'request')) != 'request':
        raise error('org.bluez.Error.NotPermitted', 'Write without response not supported')
    frame = bytes(value)
    device = self.path.rsplit('/', 2)[0]
    if frame[:1] == b'\x1c':
        state = STATE['devices'][device]
        reply = bytes([0x41, 0x04, state['seq'] & 0xFF, 0x02, 0x01, 0x03])
        state['seq'] += 1
        later(1, lambda: notify(self.path.rsplit('/', 1)[0] + '/char002b', reply))


def acquire_notify(self, options):
    if self.props[CHARACTERISTIC]['Notifying'] or self.path in STATE['acquired']:
        raise error('org.bluez.Error.InProgress', 'In Progress')
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    STATE['acquired'][self.path] = ours
    self.UpdateProperties(CHARACTERISTIC, {'NotifyAcquired': dbus.Boolean(True)})

    def released(*_):
        release_notify(self.path)
        return False
    GLib.io_add_watch(ours.fileno(), GLib.IO_HUP | GLib.IO_ERR, released)
    fd = dbus.types.UnixFd(theirs)
    theirs.close()
    return (fd, dbus.UInt16(self.props[CHARACTERISTIC]['MTU']))


def release_notify(path):
    ours = STATE['acquired'].pop(path, None)
    if ours is None:
        return
    ours.close()
    if path in mockobject.objects:
        mockobject.objects[path].UpdateProperties(CHARACTERISTIC, {'NotifyAcquired': dbus.Boolean(False)})


def notify(path, payload):
    if path in STATE['acquired']:
        STATE['acquired'][path].send(payload)
    elif path in mockobject.objects and mockobject.objects[path].props[CHARACTERISTIC]['Notifying']:
        mockobject.objects[path].UpdateProperties(
            CHARACTERISTIC, {'Value': dbus.Array(payload, signature='y')})


def drop_link(path):
    device = mockobject.objects[path]
    for child in sorted((p for p in mockobject.objects if p.startswith(path + '/')), reverse=True):
        release_notify(child)
        remove_object(child)
    if device.props[DEVICE]['Connected']:
        device.UpdateProperties(DEVICE, {'ServicesResolved': dbus.Boolean(False)})
        device.UpdateProperties(DEVICE, {'Connected': dbus.Boolean(False)})


def disconnect(self):
    if not self.props[DEVICE]['Connected']:
        raise error('org.bluez.Error.NotConnected', 'Not Connected')
    drop_link(self.path)


def force_disconnect(self, address):
    for path, state in STATE['devices'].items():
        if state['spec']['address'] == address and path in mockobject.objects:
            drop_link(path)
