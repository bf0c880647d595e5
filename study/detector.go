package study

// Detector is a language detector that decides compliance
// (compliance.detector, detections.detector, --detector).
type Detector string

// The detectors.
const (
	// Langdetect applies the paper's rule; it is the default.
	Langdetect Detector = "langdetect"
	// Lingua is datg's segment detector (lingua-go).
	Lingua Detector = "lingua"
)

// Detectors lists the detectors, the default first.
var Detectors = []Detector{Langdetect, Lingua}

// ParseDetector returns the detector s names.
func ParseDetector(s string) (Detector, error) { return parse(s, Detectors, ErrUnknownDetector) }
