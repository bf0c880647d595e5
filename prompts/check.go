package prompts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"text/template/parse"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/study"
)

// checkTemplate parses a template of f and checks it against f's input:
// only {{.Field}} substitutions, {{if .Field}} ... {{else}} ... {{end}}
// conditions and comments, naming fields of the input only, and using
// every required field. A set so checked cannot fail when rendered.
//
// The file's leading and trailing white space is not part of the template
// (so a file may end in a newline); lines are still counted in the file.
func checkTemplate(path, raw string, f File) (*template.Template, error) {
	text := strings.TrimSpace(raw)
	skipped := strings.Count(raw[:strings.Index(raw, text)], "\n")
	at := func(line int, err error) error {
		if line > 0 {
			line += skipped
		}
		return inputerr.At(path, line, err)
	}
	t, err := template.New(f.Name).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, at(templateLine(err), fmt.Errorf("%w: %s", ErrBadTemplate, templateMessage(err)))
	}
	if t.Tree == nil {
		return nil, at(0, fmt.Errorf("%w: the template is empty", ErrBadTemplate))
	}
	if len(t.Templates()) > 1 {
		return nil, inputerr.At(path, 0, fmt.Errorf("%w: define and block are not supported; write one template", ErrBadTemplate))
	}
	c := checker{tree: t.Tree, input: f.Input, at: at}
	c.walk(t.Tree.Root)
	if c.err != nil {
		return nil, c.err
	}
	// Run it on a sample input whose strings are marked, so a required
	// variable left out (or only in a branch never taken) is seen.
	sample := reflect.New(f.Input).Elem()
	for i := 0; i < sample.NumField(); i++ {
		switch fv := sample.Field(i); fv.Kind() {
		case reflect.String:
			fv.SetString(marker(f.Input.Field(i).Name))
		case reflect.Int:
			fv.SetInt(int64(10 + i))
		}
	}
	var out bytes.Buffer
	if err := t.Execute(&out, sample.Interface()); err != nil {
		return nil, at(templateLine(err), fmt.Errorf("%w: %s", ErrBadTemplate, templateMessage(err)))
	}
	for _, name := range f.Required {
		if !strings.Contains(out.String(), marker(name)) {
			return nil, at(0, fmt.Errorf("%w: {{.%s}} (%s)", ErrUnusedVariable, name, fieldDoc(f.Input, name)))
		}
	}
	return t, nil
}

func marker(field string) string { return "\x00sample:" + field + "\x00" }

func fieldDoc(t reflect.Type, name string) string {
	f, _ := t.FieldByName(name)
	return f.Tag.Get("doc")
}

// Variables lists the fields of an input type: the variables its template
// may use.
func Variables(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		names = append(names, t.Field(i).Name)
	}
	return names
}

type checker struct {
	tree  *parse.Tree
	input reflect.Type
	at    func(line int, err error) error
	err   error
}

func (c *checker) fail(n parse.Node, sentinel error, format string, args ...any) {
	if c.err != nil {
		return
	}
	loc, _ := c.tree.ErrorContext(n)
	c.err = c.at(locLine(loc), fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...)))
}

func (c *checker) walk(n parse.Node) {
	switch n := n.(type) {
	case nil:
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, m := range n.Nodes {
			c.walk(m)
		}
	case *parse.TextNode, *parse.CommentNode:
	case *parse.ActionNode:
		c.field(n, n.Pipe)
	case *parse.IfNode:
		c.field(n, n.Pipe)
		c.walk(n.List)
		c.walk(n.ElseList)
	default:
		c.fail(n, ErrBadTemplate, "%s: only {{.Variable}}, {{if .Variable}} ... {{else}} ... {{end}} and comments are supported", n)
	}
}

// field checks that a pipeline is one variable of the input.
func (c *checker) field(n parse.Node, p *parse.PipeNode) {
	if p == nil || len(p.Decl) > 0 || len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		c.fail(n, ErrBadTemplate, "%s: only a single {{.Variable}} is supported here (no functions, pipes or $variables)", n)
		return
	}
	f, ok := p.Cmds[0].Args[0].(*parse.FieldNode)
	if !ok || len(f.Ident) != 1 {
		c.fail(n, ErrBadTemplate, "%s: only a single {{.Variable}} is supported here (no functions, pipes or $variables)", n)
		return
	}
	if _, ok := c.input.FieldByName(f.Ident[0]); !ok || !token(f.Ident[0]) {
		c.fail(n, ErrUnknownVariable, "{{.%s}} (this file's variables: %s)", f.Ident[0], strings.Join(Variables(c.input), ", "))
	}
}

// token reports an exported name: unexported fields are not variables.
func token(name string) bool { return name != "" && name[0] >= 'A' && name[0] <= 'Z' }

// templateLine digs the line out of a text/template error
// ("template: name:3: ..." or "template: name:3:7: ...").
func templateLine(err error) int {
	msg := err.Error()
	_, rest, ok := strings.Cut(msg, "template: ")
	if !ok {
		return 0
	}
	parts := strings.SplitN(rest, ":", 4)
	if len(parts) < 3 {
		return 0
	}
	n, _ := strconv.Atoi(parts[1])
	return n
}

// templateMessage is a text/template error without its "template: name:line:"
// prefix (the error names the file and line itself).
func templateMessage(err error) string {
	msg := err.Error()
	_, rest, ok := strings.Cut(msg, "template: ")
	if !ok {
		return msg
	}
	parts := strings.SplitN(rest, ": ", 2)
	if len(parts) == 2 {
		return parts[1]
	}
	return msg
}

// locLine reads the line of an ErrorContext location "name:line:col".
func locLine(loc string) int {
	parts := strings.Split(loc, ":")
	if len(parts) < 3 {
		return 0
	}
	n, _ := strconv.Atoi(parts[len(parts)-2])
	return n
}

// parseLanguages reads languages.json: the study's languages (the builtin
// list's codes and resource groups), each with a name, a solver system
// message and a direct-first prefix.
func parseLanguages(path string, b []byte) ([]Language, error) {
	var f struct {
		Languages []Language `json:"languages"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, inputerr.At(path, jsonLine(b, err), fmt.Errorf("%w: %v", ErrBadLanguages, err))
	}
	if dec.More() {
		return nil, inputerr.At(path, 0, fmt.Errorf("%w: more than one JSON value", ErrBadLanguages))
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrBadLanguages}, args...)...))
	}
	seen := map[string]bool{}
	for i, l := range f.Languages {
		if seen[l.Code] {
			bad("language %q is listed twice", l.Code)
		}
		seen[l.Code] = true
		want, err := study.LookupLanguage(l.Code)
		switch {
		case err != nil:
			bad("languages[%d]: %q is not a language of the study (%s)", i, l.Code, study.Codes())
			continue
		case l.Resource != string(want.Resource):
			bad("%s: resource %q: the resource group is the study's (%s), not a prompt", l.Code, l.Resource, want.Resource)
		}
		for field, v := range map[string]string{"name": l.Name, "system": l.System, "prefix": l.Prefix} {
			if strings.TrimSpace(v) == "" {
				bad("%s: %s is empty", l.Code, field)
			}
		}
	}
	for _, l := range study.Languages() {
		if !seen[l.Code] {
			bad("language %q is missing", l.Code)
		}
	}
	if len(errs) > 0 {
		slices.SortStableFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
		return nil, inputerr.At(path, 0, errors.Join(errs...))
	}
	return f.Languages, nil
}

// jsonLine is the line of a JSON decoding error's offset (0 when the error
// gives none).
func jsonLine(b []byte, err error) int {
	var off int64
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	default:
		return 0
	}
	return bytes.Count(b[:min(int(off), len(b))], []byte("\n")) + 1
}
