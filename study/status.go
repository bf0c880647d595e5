package study

// NodeStatus is what an aligner says a trace did with a DAG node
// (alignment_events.status), or, in scoring, that it said nothing.
type NodeStatus string

// The node statuses.
const (
	Commit  NodeStatus = "COMMIT"
	Attempt NodeStatus = "ATTEMPT"
	Error   NodeStatus = "ERROR"
	Missing NodeStatus = "MISSING" // a scoring status: a node with no events
)

// EventStatuses are the statuses an aligner may return for a node.
var EventStatuses = []NodeStatus{Commit, Attempt, Error}

// NodeStatuses are the event statuses and Missing, the labels a human
// annotation may give a node.
var NodeStatuses = []NodeStatus{Commit, Attempt, Error, Missing}

// ParseNodeStatus returns the node status s names (Missing included).
func ParseNodeStatus(s string) (NodeStatus, error) {
	return parse(s, NodeStatuses, ErrUnknownStatus)
}

// AlignmentStatus is alignments.status: whether the aligner's reply held a
// usable alignment.
type AlignmentStatus string

// The alignment statuses.
const (
	AlignmentOK          AlignmentStatus = "ok"
	AlignmentInvalidJSON AlignmentStatus = "invalid-json" // no usable alignment; it has no events
)

// AlignmentStatuses lists the alignment statuses.
var AlignmentStatuses = []AlignmentStatus{AlignmentOK, AlignmentInvalidJSON}

// ParseAlignmentStatus returns the alignment status s names.
func ParseAlignmentStatus(s string) (AlignmentStatus, error) {
	return parse(s, AlignmentStatuses, ErrUnknownStatus)
}

// AlignmentErrorKind is alignment_errors.kind: what was wrong with an item
// of an aligner's reply (the item is dropped, except as too-many-actions
// and locate-capped say; the rest is scored).
type AlignmentErrorKind string

// The alignment error kinds.
const (
	UnknownNode    AlignmentErrorKind = "unknown-node"     // an event for a node the DAG lacks
	BadStatus      AlignmentErrorKind = "bad-status"       // an event whose status is none of COMMIT, ATTEMPT, ERROR
	MissingStatus  AlignmentErrorKind = "missing-status"   // an event saying MISSING, which only no events imply
	TooManyActions AlignmentErrorKind = "too-many-actions" // a harmful action past its list's cap
	InvalidJSON    AlignmentErrorKind = "invalid-json"     // the reply held no usable alignment
	// LocateCapped is an evidence span whose search a cap of the span
	// locator cut short (a span too long to search fuzzily, or the
	// alignment's locating budget spent); the item is kept, not located.
	LocateCapped AlignmentErrorKind = "locate-capped"
	// BudgetSpentReasoning is a reply that held no usable alignment because
	// the aligner spent its token budget reasoning (finish_reason length,
	// its reasoning filling the budget), also when asked again with a
	// larger one: the alignment is invalid-json, and this says why.
	BudgetSpentReasoning AlignmentErrorKind = "budget-spent-reasoning"
)

// AlignmentErrorKinds lists the alignment error kinds.
var AlignmentErrorKinds = []AlignmentErrorKind{UnknownNode, BadStatus, MissingStatus, TooManyActions, InvalidJSON, LocateCapped, BudgetSpentReasoning}
