"""Ports nodeports/node_ports_test.go: TestNodePorts, TestPreFilterDisabled, TestFits.

Left out: Test_isSchedulableAfterAssignedPodDeleted (queueing hints are not modelled) and
TestNodePorts_DeferredResizeSkipped (InPlacePodVerticalScalingSchedulerPreemption is off in v1.37.2).
"""

import pytest

from reference.cycle_state import CycleState
from reference.nodeinfo import NodeInfo
from reference.plugins.node_ports import ERR_REASON, NodePorts, fits, get_host_ports
from reference.status import SUCCESS, Code, Status
from reference.types import Container, ContainerPort, Pod

CONFLICT = Status.new(Code.UNSCHEDULABLE, ERR_REASON)
SKIP = Status.new(Code.SKIP)


def new_pod(host, *port_infos):
    """"PROTO/IP/PORT" strings, like upstream's newPod."""
    ports = []
    for info in port_infos:
        protocol, ip, port = info.split("/")
        ports.append(ContainerPort(container_port=0, host_port=int(port), protocol=protocol, host_ip=ip))
    return Pod(name="p", node_name=host, containers=(Container(name="c", ports=tuple(ports)),))


def node_info_with(*port_infos):
    return NodeInfo.of(None, [new_pod("p1", *port_infos)])


def init_port_pod(sidecar):
    port = ContainerPort(container_port=8001, host_port=8001, protocol="TCP")
    init = Container(name="init", ports=(port,), restart_policy="Always" if sidecar else None)
    return Pod(name="p", init_containers=(init,))


NODE_PORTS_CASES = [
    pytest.param(Pod(name="p"), NodeInfo(), SKIP, None, id="skip filter"),
    pytest.param(new_pod("m1", "UDP/127.0.0.1/8080"), node_info_with("UDP/127.0.0.1/9090"), SUCCESS, SUCCESS,
                 id="other port"),
    pytest.param(new_pod("m1", "UDP/127.0.0.1/8080"), node_info_with("UDP/127.0.0.1/8080"), SUCCESS, CONFLICT,
                 id="same udp port"),
    pytest.param(new_pod("m1", "TCP/127.0.0.1/8080"), node_info_with("TCP/127.0.0.1/8080"), SUCCESS, CONFLICT,
                 id="same tcp port"),
    pytest.param(new_pod("m1", "TCP/127.0.0.1/8080"), node_info_with("TCP/127.0.0.2/8080"), SUCCESS, SUCCESS,
                 id="different host ip"),
    pytest.param(new_pod("m1", "UDP/127.0.0.1/8080"), node_info_with("TCP/127.0.0.1/8080"), SUCCESS, SUCCESS,
                 id="different protocol"),
    pytest.param(new_pod("m1", "UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"), node_info_with("UDP/127.0.0.1/8080"),
                 SUCCESS, CONFLICT, id="second udp port conflict"),
    pytest.param(new_pod("m1", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"),
                 node_info_with("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"), SUCCESS, CONFLICT,
                 id="first tcp port conflict"),
    pytest.param(new_pod("m1", "TCP/0.0.0.0/8001"), node_info_with("TCP/127.0.0.1/8001"), SUCCESS, CONFLICT,
                 id="first tcp port conflict due to 0.0.0.0 hostIP"),
    pytest.param(new_pod("m1", "TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"), node_info_with("TCP/127.0.0.1/8001"),
                 SUCCESS, CONFLICT, id="TCP hostPort conflict due to 0.0.0.0 hostIP"),
    pytest.param(new_pod("m1", "TCP/127.0.0.1/8001"), node_info_with("TCP/0.0.0.0/8001"), SUCCESS, CONFLICT,
                 id="second tcp port conflict to 0.0.0.0 hostIP"),
    pytest.param(new_pod("m1", "UDP/127.0.0.1/8001"), node_info_with("TCP/0.0.0.0/8001"), SUCCESS, SUCCESS,
                 id="second different protocol"),
    pytest.param(new_pod("m1", "UDP/127.0.0.1/8001"), node_info_with("TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"),
                 SUCCESS, CONFLICT, id="UDP hostPort conflict due to 0.0.0.0 hostIP"),
    pytest.param(init_port_pod(sidecar=False), node_info_with("TCP/0.0.0.0/8001"), SKIP, None,
                 id="non-sidecar initContainer using hostPort"),
    pytest.param(init_port_pod(sidecar=True), node_info_with("TCP/0.0.0.0/8001"), SUCCESS, CONFLICT,
                 id="TCP hostPort conflict from sidecar initContainer"),
]


@pytest.mark.parametrize("pod,node_info,want_pre_filter,want_filter", NODE_PORTS_CASES)
def test_node_ports(pod, node_info, want_pre_filter, want_filter):
    plugin = NodePorts()
    state = CycleState()
    result, status = plugin.pre_filter(state, pod, [])
    assert (result, status) == (None, want_pre_filter)
    if status.is_skip():
        return
    assert plugin.filter(state, pod, node_info) == want_filter


def test_pre_filter_disabled():
    status = NodePorts().filter(CycleState(), Pod(name="p"), NodeInfo())
    assert status == Status.as_status('reading "PreFilterNodePorts" from cycleState: not found')


@pytest.mark.parametrize("pod,existing,expect", [
    pytest.param(new_pod("p", "TCP/127.0.0.1/80"), node_info_with("TCP/127.0.0.1/9090"), True,
                 id="non-conflicting ports"),
    pytest.param(new_pod("p", "TCP/127.0.0.1/80", "TCP/127.0.1.1/80", "TCP/127.0.1.1/90", "TCP/127.0.1.1/100"),
                 node_info_with("TCP/127.0.0.1/9090", "TCP/127.0.0.1/9191", "TCP/127.0.1.1/8080"), True,
                 id="multiple non-conflicting ports"),
    pytest.param(new_pod("m1", "TCP/127.0.0.1/80"), node_info_with("UDP/127.0.0.1/80"), True,
                 id="same ports on different protocols"),
    pytest.param(new_pod("m1", "TCP/127.0.0.1/80"), node_info_with("TCP/127.0.0.1/80"), False,
                 id="conflicting ports"),
    pytest.param(new_pod("p", "TCP/127.0.0.1/80", "TCP/127.0.1.1/80", "TCP/127.0.1.1/90", "TCP/127.0.1.1/100"),
                 node_info_with("TCP/127.0.0.1/9090", "TCP/127.0.1.1/90", "TCP/127.0.1.1/8080"), False,
                 id="multiple ports, some conflicting"),
])
def test_fits(pod, existing, expect):
    assert fits(pod, existing) is expect


def test_host_ports_list_sidecars_first_and_drop_zero_ports():
    sidecar_port = ContainerPort(container_port=1, host_port=81)
    pod = Pod(name="p", init_containers=(Container(name="s", ports=(sidecar_port,), restart_policy="Always"),),
              containers=(Container(name="c", ports=(ContainerPort(container_port=2, host_port=80),
                                                     ContainerPort(container_port=3))),))
    assert [p.host_port for p in get_host_ports(pod)] == [81, 80]
