package prompts

// The builtin set's messages, for the simulator, which answers datg's own
// prompts and recognizes a task by its system message. Stages never use
// these: they render through the *Set of their Config, so --prompts
// reaches every request. They are functions, not variables set at init:
// loading the builtin set (its files read, decoded and hashed) is 2.3
// million instructions, which every datg process paid at start-up.

// ReferenceSystem is the builtin set's system message of the reference
// requests.
func ReferenceSystem() string { return Builtin().ReferenceSystem() }

// DAGSystem is the builtin set's system message of the DAG-construction
// requests.
func DAGSystem() string { return Builtin().DAGSystem() }

// AlignSystem is the builtin set's system message of the alignment
// requests.
func AlignSystem() string { return Builtin().AlignSystem() }

// AlignUser renders the builtin alignment request (for the simulator's
// tests).
func AlignUser(in AlignInput) string { return Builtin().AlignUser(in) }

// ScaffoldSystem renders the builtin Formula-Retry system message (the
// simulator recognizes it).
func ScaffoldSystem(in ScaffoldInput) string { return Builtin().ScaffoldSystem(in) }
