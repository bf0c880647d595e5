package prompts

import "errors"

// Errors of loading a prompt set. Each is wrapped with the file (and line,
// where text/template or the JSON reader gives one) and marked as an
// invalid configuration (inputerr.ErrInvalidConfig), so a command exits 2.
var (
	// ErrMissingFile means a file of the prompt set is absent from DIR.
	ErrMissingFile = errors.New("prompt file missing")
	// ErrBadTemplate means a template does not parse, or fails when run on
	// sample input.
	ErrBadTemplate = errors.New("prompt template is broken")
	// ErrUnknownVariable means a template names a variable ({{.Foo}}) that
	// the stage rendering it does not provide.
	ErrUnknownVariable = errors.New("unknown template variable")
	// ErrUnusedVariable means a template leaves out a variable the request
	// cannot do without (the trace of an alignment request, say).
	ErrUnusedVariable = errors.New("template leaves out a required variable")
	// ErrBadLanguages means languages.json is not the study's 12 languages,
	// each with a name, a system message and a direct-first prefix.
	ErrBadLanguages = errors.New("languages.json is not a valid language list")
	// ErrExportTarget means prompts export would overwrite a file.
	ErrExportTarget = errors.New("export would overwrite a file")
)
