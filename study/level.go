package study

// Level is a PolyMath difficulty level.
type Level string

// The levels, easiest first.
const (
	Low    Level = "low"
	Medium Level = "medium"
	High   Level = "high"
	Top    Level = "top"
)

// Levels lists PolyMath's levels, easiest first.
var Levels = []Level{Low, Medium, High, Top}

// ValidLevel reports whether s is a PolyMath level.
func ValidLevel(s string) bool {
	_, err := ParseLevel(s)
	return err == nil
}

// ParseLevel returns the level s names.
func ParseLevel(s string) (Level, error) { return parse(s, Levels, ErrUnknownLevel) }
