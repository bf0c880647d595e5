package simulate

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/strictjson"
)

//go:embed profile.json
var defaultProfile []byte

// Profile sets how the simulated model behaves per level, model size and
// language.
type Profile struct {
	Comment         string                   `json:"comment"` // a note for the reader
	LevelAccuracy   map[string]float64       `json:"level_accuracy"`
	ModelSizes      []ModelSize              `json:"model_sizes"`
	LoopLevelFactor map[string]float64       `json:"loop_level_factor"`
	Steps           map[string][2]int        `json:"steps"` // reasoning steps, min and max
	Languages       map[string]LangBehaviour `json:"languages"`
	// LoopOnset is, per level, the range of tokens a looping sample reasons
	// for before the loop sets in (uniform; absent: after a step or two).
	LoopOnset map[string][2]int `json:"loop_onset"`
	// ScaffoldGain is the share of a language's reasoning weakness that a
	// Formula-Retry plan written beforehand makes up, per level.
	ScaffoldGain map[string]float64 `json:"scaffold_gain"`
}

// ModelSize scales accuracy for models of about this many billion parameters.
type ModelSize struct {
	Billions float64 `json:"billions"`
	Factor   float64 `json:"factor"`
}

// LangBehaviour is one language's effect on the simulated model.
type LangBehaviour struct {
	Reasoning     float64 `json:"reasoning"`      // accuracy factor when reasoning in it
	Input         float64 `json:"input"`          // accuracy factor when the problem is in it
	Loop          float64 `json:"loop"`           // rate of repetition loops that run to the budget
	WrongLanguage float64 `json:"wrong_language"` // rate of reasoning in another language
	NoAnswer      float64 `json:"no_answer"`      // rate of finishing without a final answer
	// NativeDigits is the rate of boxing a whole-number answer in the
	// language's own digits (১৮ in Bengali): graders differ on them
	// (Math-Verify reads none; datg's multilingual grader does).
	NativeDigits float64 `json:"native_digits,omitempty"`
}

// DefaultProfile is the embedded profile.
func DefaultProfile() Profile {
	p, err := parseProfile(defaultProfile)
	if err != nil {
		panic("simulate: embedded profile: " + err.Error())
	}
	return p
}

// LoadProfile reads a profile file; languages it leaves out keep the
// embedded defaults. The file must hold one JSON object with no key given
// twice and no unknown field; a problem names the file and line.
func LoadProfile(path string) (Profile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Profile{}, err
	}
	p := DefaultProfile()
	if _, err := strictjson.Decode(b, &p, strictjson.Options{}); err != nil {
		var se *strictjson.Error
		if errors.As(err, &se) {
			return Profile{}, inputerr.Invalid(inputerr.At(path, se.Line, se.Err))
		}
		return Profile{}, inputerr.Invalid(fmt.Errorf("%s: %w", path, err))
	}
	return p, p.Validate()
}

func parseProfile(b []byte) (Profile, error) {
	var p Profile
	if err := json.Unmarshal(b, &p); err != nil {
		return p, err
	}
	return p, p.Validate()
}

// Validate checks that every rate is a probability.
func (p Profile) Validate() error {
	for lang, b := range p.Languages {
		for name, v := range map[string]float64{"loop": b.Loop, "wrong_language": b.WrongLanguage, "no_answer": b.NoAnswer, "native_digits": b.NativeDigits} {
			if v < 0 || v > 1 {
				return fmt.Errorf("profile: %s %s rate %v is not in [0, 1]", lang, name, v)
			}
		}
		if b.Loop+b.WrongLanguage+b.NoAnswer > 1 {
			return fmt.Errorf("profile: %s failure rates add up to more than 1", lang)
		}
	}
	for lvl, on := range p.LoopOnset {
		if on[0] < 0 || on[1] < on[0] {
			return fmt.Errorf("profile: loop onset for %s must be 0 <= min <= max", lvl)
		}
	}
	for lvl, g := range p.ScaffoldGain {
		if g < 0 || g > 1 {
			return fmt.Errorf("profile: scaffold gain %v for %s is not in [0, 1]", g, lvl)
		}
	}
	for lvl, s := range p.Steps {
		if s[0] < 1 || s[1] < s[0] {
			return fmt.Errorf("profile: steps for %s must be 1 <= min <= max", lvl)
		}
	}
	return nil
}

var sizeRe = regexp.MustCompile(`(\d+(?:\.\d+)?)b\b`)

func (p Profile) modelFactor(model string) float64 {
	m := sizeRe.FindStringSubmatch(strings.ToLower(model))
	if m == nil || len(p.ModelSizes) == 0 {
		return 1
	}
	size, _ := strconv.ParseFloat(m[1], 64)
	best, dist := 1.0, math.Inf(1)
	for _, s := range p.ModelSizes {
		if d := math.Abs(math.Log(size / s.Billions)); d < dist {
			best, dist = s.Factor, d
		}
	}
	return best
}

func (p Profile) lang(code string) LangBehaviour {
	if b, ok := p.Languages[code]; ok {
		return b
	}
	return LangBehaviour{Reasoning: 0.5, Input: 0.8, Loop: 0.1, NoAnswer: 0.05}
}

func (p Profile) steps(level string) [2]int {
	if s, ok := p.Steps[level]; ok {
		return s
	}
	return [2]int{4, 10}
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }
