"""org.bluez.AgentManager1 as BlueZ 5.66 keeps it (src/agent.c): one agent per D-Bus client, one default.

RegisterAgent(path, capability): an empty capability means KeyboardDisplay; an unknown one is
InvalidArguments; a second registration by the same client is AlreadyExists. RequestDefaultAgent
needs the caller's own registered agent at that path (else DoesNotExist "Does Not Exist").
UnregisterAgent of an unknown agent is DoesNotExist. An agent goes away with its client. Pair uses
the caller's agent, else the default one (agent_get).
"""

from .dbus_export import Call, bluez_error

CAPABILITIES = ("DisplayOnly", "DisplayYesNo", "KeyboardOnly", "NoInputNoOutput", "KeyboardDisplay")


class AgentRegistry:
    def __init__(self, watch_client, event):
        self.watch_client = watch_client
        self.event = event
        self.agents: dict[str, tuple[str, str, object]] = {}
        self.default: str | None = None

    def register(self, call: Call):
        path, capability = str(call.args[0]), str(call.args[1]) or "KeyboardDisplay"
        if capability not in CAPABILITIES:
            raise bluez_error("InvalidArguments", "Invalid arguments in method call")
        if call.sender in self.agents:
            raise bluez_error("AlreadyExists", "Already Exists")
        watch = self.watch_client(call.sender, lambda: self._gone(call.sender))
        self.agents[call.sender] = (path, capability, watch)
        self.event({"event": "agent-registered", "sender": call.sender, "path": path, "capability": capability})
        return None

    def unregister(self, call: Call):
        agent = self.agents.get(call.sender)
        if agent is None or agent[0] != str(call.args[0]):
            raise bluez_error("DoesNotExist", "Does Not Exist")
        agent[2].cancel()
        self._gone(call.sender)
        return None

    def request_default(self, call: Call):
        agent = self.agents.get(call.sender)
        if agent is None or agent[0] != str(call.args[0]):
            raise bluez_error("DoesNotExist", "Does Not Exist")
        self.default = call.sender
        self.event({"event": "agent-default", "sender": call.sender, "path": agent[0]})
        return None

    def _gone(self, sender: str) -> None:
        if self.agents.pop(sender, None) is not None:
            self.event({"event": "agent-unregistered", "sender": sender})
        if self.default == sender:
            self.default = None

    def capability_for(self, sender: str | None) -> str | None:
        """The IO capability Pair runs with for `sender`: its agent's, else the default agent's."""
        agent = self.agents.get(sender) if sender else None
        if agent is None and self.default is not None:
            agent = self.agents.get(self.default)
        return agent[1] if agent else None

    def snapshot(self) -> list[dict]:
        return [{"sender": sender, "path": path, "capability": capability, "default": sender == self.default}
                for sender, (path, capability, _) in self.agents.items()]
