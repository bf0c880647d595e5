package prompts

// Language is one language of the study with its prompts, as a set's
// languages.json gives it. What the language is (its code, names and
// resource group) is declared in package study; a set must name the study's
// languages with the study's resource groups, and gives in each the solver
// system message and the direct-first prefix.
type Language struct {
	Code       string `json:"code"`
	Name       string `json:"name"`
	NativeName string `json:"native_name"`
	Resource   string `json:"resource"` // HRL, MRL or LRL: the study's, not a prompt
	System     string `json:"system"`   // solver system message, in this language
	Prefix     string `json:"prefix"`   // direct-first prefix that opens the reasoning
}

// Languages returns the study's languages in the paper's order, with the
// builtin set's prompts. Stages that send a prompt take theirs from their
// *Set (Set.Language), which --prompts may replace; what the study's
// languages are (codes, names, resource groups) is study.Languages.
func Languages() []Language { return Builtin().Languages() }

// Lookup returns the study's language with the given code, with the builtin
// set's prompts (see Languages).
func Lookup(code string) (Language, error) { return Builtin().Language(code) }
