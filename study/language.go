package study

import (
	"fmt"
	"sort"
)

// English is the pivot language of every direction.
const English = "en"

// Resource is a language's resource group, as the paper groups the
// languages.
type Resource string

// The resource groups.
const (
	HRL Resource = "HRL" // high-resource
	MRL Resource = "MRL" // mid-resource
	LRL Resource = "LRL" // low-resource
)

// Resources lists the resource groups, highest first.
var Resources = []Resource{HRL, MRL, LRL}

// Script is the writing system a language's reasoning is written in, as its
// ISO 15924 code.
type Script string

// The scripts of the study's languages.
const (
	Latin    Script = "Latn"
	Cyrillic Script = "Cyrl"
	HanSimp  Script = "Hans" // Han, simplified
	Japanese Script = "Jpan" // Han, Hiragana and Katakana
	Hangul   Script = "Hang"
	Thai     Script = "Thai"
	Bengali  Script = "Beng"
	Telugu   Script = "Telu"
)

// Language is one language of the study: what it is, not what is said to a
// model in it (the system message and the direct-first prefix are prompt
// data, in prompts).
type Language struct {
	Code       string // ISO 639-1
	Name       string // English name, as tables print it
	NativeName string
	Resource   Resource
	Script     Script
}

// languages are the study's 12 languages in the paper's order.
var languages = []Language{
	{"en", "English", "English", HRL, Latin},
	{"fr", "French", "Français", HRL, Latin},
	{"ru", "Russian", "Русский", HRL, Cyrillic},
	{"zh", "Chinese (Simplified)", "中文", HRL, HanSimp},
	{"ja", "Japanese", "日本語", HRL, Japanese},
	{"ko", "Korean", "한국어", HRL, Hangul},
	{"id", "Indonesian", "Bahasa Indonesia", MRL, Latin},
	{"ms", "Malay", "Bahasa Melayu", MRL, Latin},
	{"th", "Thai", "ไทย", MRL, Thai},
	{"bn", "Bengali", "বাংলা", MRL, Bengali},
	{"sw", "Swahili", "Kiswahili", LRL, Latin},
	{"te", "Telugu", "తెలుగు", LRL, Telugu},
}

// Languages returns the study's languages in the paper's order.
func Languages() []Language { return append([]Language(nil), languages...) }

// LanguageCodes returns the study's language codes in the paper's order.
func LanguageCodes() []string {
	out := make([]string, len(languages))
	for i, l := range languages {
		out[i] = l.Code
	}
	return out
}

// LookupLanguage returns the study's language with the given code.
func LookupLanguage(code string) (Language, error) {
	for _, l := range languages {
		if l.Code == code {
			return l, nil
		}
	}
	return Language{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownLanguage, code, Codes())
}

// Codes lists the known language codes, sorted, for error messages.
func Codes() string {
	cs := LanguageCodes()
	sort.Strings(cs)
	return fmt.Sprint(cs)
}
