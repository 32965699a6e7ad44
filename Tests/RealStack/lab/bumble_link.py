"""Bumble's in-process radio link, with the three fixes the Linux 6.1 host needs (Bumble 0.0.236).

1. `LocalLink.send_acl_data` labels LE ACL data with the sending controller's *random* address.
   The kernel scans with a random address but connects with its public one, so the peripheral's
   controller finds no connection for that label and drops every packet. `LabLink` labels the data
   with the address the sender's own connection uses.
2. Bumble's controller answers an LE connection only with "LE Connection Complete". A 6.1 kernel
   that enabled "LE Enhanced Connection Complete" in its LE event mask waits for that one; the
   first link works by luck, the disconnect then turns into a create-connection cancel and every
   later connection fails. `KernelFacingController` sends the enhanced event whenever the host
   asked for it.
3. A scanning Bumble controller reports the advertising data a second time as the "scan response",
   so a name a peripheral puts in its scan response (as Improv devices must: their advertisement is
   full) never reaches bluetoothd. `KernelFacingController` reports the advertiser's own scan
   response data instead.

All lean on Bumble internals, hence the pinned version (Tests/RealStack/setup-venv).
"""

import asyncio
import dataclasses

from bumble import controller, core, hci, link

PINNED_BUMBLE = "0.0.236"
LE_ENHANCED_CONNECTION_COMPLETE_MASK_BIT = 9


class LabLink(link.LocalLink):
    def send_acl_data(self, sender_controller, destination_address, transport, data):
        if transport != core.PhysicalTransport.LE:
            return super().send_acl_data(sender_controller, destination_address, transport, data)
        connection = sender_controller.le_connections.get(destination_address)
        destination = self.find_le_controller(destination_address)
        if connection is None or destination is None:
            return None
        source = connection.self_address
        asyncio.get_running_loop().call_soon(
            lambda: destination.on_link_acl_data(source, transport, data))
        return None


SCAN_RESPONSE_REPORTS = {
    hci.HCI_LE_Advertising_Report_Event: hci.HCI_LE_Advertising_Report_Event.EventType.SCAN_RSP,
    hci.HCI_LE_Extended_Advertising_Report_Event: hci.HCI_LE_Extended_Advertising_Report_Event.EventType.SCAN_RESPONSE,
}


class KernelFacingController(controller.Controller):
    def send_hci_packet(self, packet):
        if type(packet) in SCAN_RESPONSE_REPORTS:
            packet = self._with_scan_responses(packet)
        if isinstance(packet, hci.HCI_LE_Connection_Complete_Event) and self._wants_enhanced():
            packet = hci.HCI_LE_Enhanced_Connection_Complete_Event(
                status=packet.status,
                connection_handle=packet.connection_handle,
                role=packet.role,
                peer_address_type=packet.peer_address_type,
                peer_address=packet.peer_address,
                local_resolvable_private_address=hci.Address.ANY_RANDOM,
                peer_resolvable_private_address=hci.Address.ANY_RANDOM,
                connection_interval=packet.connection_interval,
                peripheral_latency=packet.peripheral_latency,
                supervision_timeout=packet.supervision_timeout,
                central_clock_accuracy=packet.central_clock_accuracy,
            )
        super().send_hci_packet(packet)

    def _with_scan_responses(self, packet):
        scan_response = SCAN_RESPONSE_REPORTS[type(packet)]
        reports = [dataclasses.replace(report, data=self._scan_response_of(report.address))
                   if report.event_type == scan_response else report for report in packet.reports]
        return type(packet)(reports)

    def _scan_response_of(self, address) -> bytes:
        advertiser = self.link.find_le_controller(address)
        if advertiser is None:
            return b""
        enabled = [bytes(s.scan_response_data) for s in advertiser.advertising_sets.values() if s.enabled]
        return enabled[0] if enabled else bytes(advertiser.le_legacy_advertiser.scan_response_data)

    def _wants_enhanced(self) -> bool:
        return bool(self.le_event_mask >> LE_ENHANCED_CONNECTION_COMPLETE_MASK_BIT & 1)
