"""Thread provisioning of an ESP network_provisioning device (NETWORK_TYPE_THREAD builds).

Written from idf-extra-components `network_provisioning` (proto/network_config.proto,
network_scan.proto, network_ctrl.proto; src/network_config.c, handlers.c, manager.c): the client
sends an active operational dataset as TLVs (CmdSetThreadConfig, at most 254 bytes, the size of
OpenThread's otOperationalDatasetTlvs), applies it, then polls RespGetThreadStatus: Attaching, then
Attached with the dataset's PAN ID, extended PAN ID, channel and network name, or AttachingFailed
with DatasetInvalid / ThreadNetworkNotFound.

Model choices (the real outcome depends on the radio): a dataset whose TLVs do not parse, or that
lacks a channel, PAN ID, extended PAN ID, network name or network key, fails with DatasetInvalid;
otherwise it attaches when its extended PAN ID is one of `thread_networks`, else
ThreadNetworkNotFound. `thread_dataset_outcome` ("attached" | "dataset-invalid" | "not-found" |
"detached") overrides that decision for a dataset that parses; "detached" answers the Detached state
(2) the proto defines but network_provisioning 1.2 never sends, for clients that must survive it.
"""

from .protobuf_wire import proto3

DATASET_MAX = 254
# MeshCoP TLV types (Thread specification 8.10): the ones the status answer and the checks use.
TLV_CHANNEL, TLV_PAN_ID, TLV_EXT_PAN_ID, TLV_NETWORK_NAME, TLV_NETWORK_KEY = 0, 1, 2, 3, 5
REQUIRED_TLVS = (TLV_CHANNEL, TLV_PAN_ID, TLV_EXT_PAN_ID, TLV_NETWORK_NAME, TLV_NETWORK_KEY)
# ThreadNetworkState / ThreadAttachFailedReason (network_constants.proto)
ATTACHED, ATTACHING, DETACHED, ATTACHING_FAILED = 0, 1, 2, 3
OUTCOMES = ("attached", "dataset-invalid", "not-found", "detached")
DATASET_INVALID, NETWORK_NOT_FOUND = 0, 1
SUCCESS, INVALID_ARGUMENT, INTERNAL_ERROR = 0, 4, 5

DEFAULT_NETWORKS = [{"network_name": "OpenThread-zt", "pan_id": 0x1234, "ext_pan_id": "dead00beef00cafe",
                     "channel": 15, "rssi": -40, "lqi": 200, "ext_addr": "a2b3c4d5e6f70811"}]


def parse_tlvs(dataset: bytes) -> dict[int, bytes] | None:
    """type → value of a TLV dataset, or None when a length runs past the end."""
    tlvs, position = {}, 0
    while position < len(dataset):
        if position + 2 > len(dataset):
            return None
        kind, length = dataset[position], dataset[position + 1]
        end = position + 2 + length
        if end > len(dataset):
            return None
        tlvs[kind] = dataset[position + 2:end]
        position = end
    return tlvs


class ThreadProvisioning:
    """The Thread half of prov-config, prov-scan and prov-ctrl; `record` is the device's recorder."""

    def __init__(self, config: dict, record):
        self.networks = config.get("thread_networks") or DEFAULT_NETWORKS
        self.forced_outcome = config.get("thread_dataset_outcome")
        if self.forced_outcome not in (None, *OUTCOMES):
            raise ValueError(f"thread_dataset_outcome must be one of {OUTCOMES}")
        self.attaching_polls = config.get("connecting_polls", 2)
        self.scan_max_entries = config.get("scan_max_entries", 16)
        self.record = record
        self.state = "started"
        self.dataset = None
        self.outcome = None
        self.attached = None
        self.polls = 0
        self.scanned = False

    # prov-config ----------------------------------------------------------------------------

    def set_config(self, command) -> int:
        dataset = command.bytes(1)
        status = INVALID_ARGUMENT if len(dataset) > DATASET_MAX else SUCCESS
        if status == SUCCESS:
            self.dataset = dataset
        self.record("thread_set_config", dataset_hex=dataset.hex(), status=status)
        return status

    def apply_config(self) -> int:
        status = INTERNAL_ERROR
        if self.dataset is not None and self.state == "started":
            self.outcome, self.attached = self._decide(self.dataset)
            self.state, self.polls, status = "applied", 0, SUCCESS
        self.record("thread_apply_config", status=status, outcome=self.outcome if status == SUCCESS else None)
        return status

    def _decide(self, dataset: bytes):
        tlvs = parse_tlvs(dataset)
        if tlvs is None or any(kind not in tlvs for kind in REQUIRED_TLVS) or len(tlvs[TLV_CHANNEL]) != 3 \
                or len(tlvs[TLV_PAN_ID]) != 2 or len(tlvs[TLV_EXT_PAN_ID]) != 8:
            return "dataset-invalid", None
        ext_pan_id = tlvs[TLV_EXT_PAN_ID].hex()
        if self.forced_outcome not in (None, "attached"):
            return self.forced_outcome, None
        if self.forced_outcome is None and not any(network["ext_pan_id"] == ext_pan_id for network in self.networks):
            return "not-found", None
        attached = [(1, proto3(int.from_bytes(tlvs[TLV_PAN_ID], "big"))), (2, tlvs[TLV_EXT_PAN_ID]),
                    (3, proto3(int.from_bytes(tlvs[TLV_CHANNEL][1:], "big"))),
                    (4, tlvs[TLV_NETWORK_NAME].decode("utf-8", "replace"))]
        return "attached", attached

    def status_fields(self) -> list:
        """RespGetThreadStatus fields after status (1)."""
        state = ATTACHING
        if self.state == "applied":
            self.polls += 1
            if self.polls > self.attaching_polls:
                self.state = {"attached": "success", "detached": "detached"}.get(self.outcome, "fail")
        if self.state == "success":
            state = ATTACHED
        elif self.state == "detached":
            state = DETACHED
        elif self.state == "fail":
            state = ATTACHING_FAILED
        fields = [(2, proto3(state))]
        if state == ATTACHED:
            fields.append((11, self.attached))
        elif state == ATTACHING_FAILED:
            fields.append((10, proto3(DATASET_INVALID if self.outcome == "dataset-invalid" else NETWORK_NOT_FOUND)))
        self.record("thread_get_status", thread_state=state,
                    fail_reason=self.outcome if state == ATTACHING_FAILED else None)
        return fields

    # prov-scan ------------------------------------------------------------------------------

    def scan_start(self, command) -> None:
        self.scanned = True
        self.record("thread_scan_start", blocking=command.boolean(1) if command else False,
                    channel_mask=command.uint(2) if command else 0)

    def scan_status(self) -> list:
        count = len(self.networks) if self.scanned else 0
        self.record("thread_scan_status", finished=True, result_count=count)
        return [(1, proto3(True)), (2, proto3(count))]

    def scan_result(self, command) -> tuple[int, list]:
        start, count = (command.uint(1), command.uint(2)) if command else (0, 0)
        results = self.networks if self.scanned else []
        if start >= self.scan_max_entries or count > self.scan_max_entries - start or start + count > len(results):
            self.record("thread_scan_result", start_index=start, count=count, status=INTERNAL_ERROR)
            return INTERNAL_ERROR, []
        entries = [(1, [(1, proto3(n["pan_id"])), (2, proto3(n["channel"])), (3, proto3(n["rssi"])),
                        (4, proto3(n["lqi"])), (5, bytes.fromhex(n["ext_addr"])), (6, n["network_name"]),
                        (7, bytes.fromhex(n["ext_pan_id"]))]) for n in results[start:start + count]]
        self.record("thread_scan_result", start_index=start, count=count, status=SUCCESS)
        return SUCCESS, entries

    # prov-ctrl ------------------------------------------------------------------------------

    def reset(self, already_reset_is_success: bool) -> int:
        if self.state == "fail":
            self.state, self.dataset = "started", None
            return SUCCESS
        return SUCCESS if self.state == "started" and already_reset_is_success else INTERNAL_ERROR

    def reprov(self, allowed: bool) -> int:
        if not allowed:
            return INTERNAL_ERROR
        self.state, self.dataset = "started", None
        return SUCCESS

