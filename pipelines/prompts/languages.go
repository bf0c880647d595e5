package prompts

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
)

//go:embed languages.json
var languagesJSON []byte

// Language is one language of the study with its prompts.
type Language struct {
	Code       string `json:"code"`
	Name       string `json:"name"`
	NativeName string `json:"native_name"`
	Resource   string `json:"resource"` // HRL, MRL or LRL, as the paper groups the languages
	System     string `json:"system"`   // solver system message, in this language
	Prefix     string `json:"prefix"`   // direct-first prefix that opens the reasoning
}

var languages = func() []Language {
	var f struct {
		Languages []Language `json:"languages"`
	}
	if err := json.Unmarshal(languagesJSON, &f); err != nil {
		panic("prompts: languages.json: " + err.Error())
	}
	return f.Languages
}()

// Languages returns the study's languages in the paper's order, with the
// builtin set's prompts. Stages that send a prompt take theirs from their
// *Set (Set.Language), which --prompts may replace; this list is for what
// the study is: its codes, names and resource groups.
func Languages() []Language { return append([]Language(nil), languages...) }

func studyLanguages() []Language { return languages }

func studyLanguage(code string) (Language, bool) {
	l, err := Lookup(code)
	return l, err == nil
}

// Lookup returns the study's language with the given code (with the
// builtin set's prompts; see Languages).
func Lookup(code string) (Language, error) {
	for _, l := range languages {
		if l.Code == code {
			return l, nil
		}
	}
	return Language{}, fmt.Errorf("unknown language %q (known: %s)", code, Codes())
}

// Codes lists the known language codes, sorted, for error messages.
func Codes() string {
	var cs []string
	for _, l := range languages {
		cs = append(cs, l.Code)
	}
	sort.Strings(cs)
	return fmt.Sprint(cs)
}
