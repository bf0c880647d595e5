package study

// ComplianceStatus is compliance.status (and detections.status): how far a
// detector could tell the reasoning's language.
type ComplianceStatus string

// The compliance statuses.
const (
	ComplianceOK       ComplianceStatus = "ok"        // one language was detected
	ComplianceMixed    ComplianceStatus = "mixed"     // several languages hold a share of the reasoning
	ComplianceEmpty    ComplianceStatus = "empty"     // nothing but math (or nothing at all)
	ComplianceTooShort ComplianceStatus = "too-short" // too little text to tell
	// ComplianceUndecided is langdetect's: no language above probability 0.1.
	ComplianceUndecided ComplianceStatus = "undecided"
)

// ComplianceStatuses lists the compliance statuses.
var ComplianceStatuses = []ComplianceStatus{ComplianceOK, ComplianceMixed, ComplianceEmpty, ComplianceTooShort, ComplianceUndecided}
