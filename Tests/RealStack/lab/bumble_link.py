"""Bumble's in-process radio link, with the two fixes the Linux 6.1 host needs (Bumble 0.0.236).

1. `LocalLink.send_acl_data` labels LE ACL data with the sending controller's *random* address.
   The kernel scans with a random address but connects with its public one, so the peripheral's
   controller finds no connection for that label and drops every packet. `LabLink` labels the data
   with the address the sender's own connection uses.
2. Bumble's controller answers an LE connection only with "LE Connection Complete". A 6.1 kernel
   that enabled "LE Enhanced Connection Complete" in its LE event mask waits for that one; the
   first link works by luck, the disconnect then turns into a create-connection cancel and every
   later connection fails. `KernelFacingController` sends the enhanced event whenever the host
   asked for it.

Both lean on Bumble internals, hence the pinned version (Tests/RealStack/setup-venv).
"""

import asyncio

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


class KernelFacingController(controller.Controller):
    def send_hci_packet(self, packet):
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

    def _wants_enhanced(self) -> bool:
        return bool(self.le_event_mask >> LE_ENHANCED_CONNECTION_COMPLETE_MASK_BIT & 1)
