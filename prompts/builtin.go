package prompts

// The builtin set's messages, for the simulator, which answers datg's own
// prompts and recognizes a task by its system message. Stages never use
// these: they render through the *Set of their Config, so --prompts
// reaches every request.
var (
	ReferenceSystem = Builtin().ReferenceSystem()
	DAGSystem       = Builtin().DAGSystem()
	AlignSystem     = Builtin().AlignSystem()
)

// AlignUser renders the builtin alignment request (for the simulator's
// tests).
func AlignUser(in AlignInput) string { return Builtin().AlignUser(in) }

// ScaffoldSystem renders the builtin Formula-Retry system message (the
// simulator recognizes it).
func ScaffoldSystem(in ScaffoldInput) string { return Builtin().ScaffoldSystem(in) }
