package broken

// Plugins whose bug shows only in the user's own world: on their own label values, their own extended
// resource, past a table bound they index by a parsed label, or on nodes larger than 16 cores. The stock
// vocabulary never reaches them; the suite must find the vocabulary in this source (no domain table).

import (
	"context"
	"strconv"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
)

const (
	tierLabel = "example.com/tier"
	slotLabel = "example.com/slot"
	qat       = v1.ResourceName("example.com/qat")
)

// tierScores is the score of each tier; gold was raised past MaxNodeScore and nothing normalizes it.
var tierScores = map[string]int64{"gold": 120, "silver": 80, "bronze": 40}

// GoldTier (score-normalized-range): scores nodes by their tier label; "gold" scores 120.
type GoldTier struct{}

func NewGoldTier(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return GoldTier{}, nil
}
func (GoldTier) Name() string { return "BrokenGoldTier" }
func (GoldTier) Score(_ context.Context, _ fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) (int64, *fwk.Status) {
	tier := n.Node().Labels[tierLabel]
	if tier == "gold" || tier == "silver" || tier == "bronze" {
		return tierScores[tier], nil
	}
	return 0, nil
}
func (GoldTier) ScoreExtensions() fwk.ScoreExtensions { return nil }

// FreeQAT (score-normalized-range): 50 plus 10 per free QAT device, which leaves [0, 100] past 5 free QAT devices.
type FreeQAT struct{}

func NewFreeQAT(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return FreeQAT{}, nil
}
func (FreeQAT) Name() string { return "BrokenFreeQAT" }
func (FreeQAT) Score(_ context.Context, _ fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) (int64, *fwk.Status) {
	free := n.GetAllocatable().GetScalarResources()[qat] - n.GetRequested().GetScalarResources()[qat]
	if free <= 0 {
		return 0, nil
	}
	return 50 + 10*free, nil
}
func (FreeQAT) ScoreExtensions() fwk.ScoreExtensions { return nil }

// slotWeights is indexed by the node's slot label; a slot of 4 or more is past its end.
var slotWeights = [4]int64{10, 40, 70, 100}

// SlotTable (plugin-no-panic): indexes slotWeights by the parsed slot label without a bound check.
type SlotTable struct{}

func NewSlotTable(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return SlotTable{}, nil
}
func (SlotTable) Name() string { return "BrokenSlotTable" }
func (SlotTable) Score(_ context.Context, _ fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) (int64, *fwk.Status) {
	slot, err := strconv.Atoi(n.Node().Labels[slotLabel])
	if err != nil || slot < 0 {
		return 0, nil
	}
	return slotWeights[slot], nil
}
func (SlotTable) ScoreExtensions() fwk.ScoreExtensions { return nil }

// BigNode (score-normalized-range): 6 points per allocatable core, past 100 on nodes of more than 16 cores.
type BigNode struct{}

func NewBigNode(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return BigNode{}, nil
}
func (BigNode) Name() string { return "BrokenBigNode" }
func (BigNode) Score(_ context.Context, _ fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) (int64, *fwk.Status) {
	return 6 * (n.GetAllocatable().GetMilliCPU() / 1000), nil
}
func (BigNode) ScoreExtensions() fwk.ScoreExtensions { return nil }
