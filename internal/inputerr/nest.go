package inputerr

// Nest names every FieldError in err as a field of parent (Endpoints
// becomes Generation.Endpoints), for a Config that holds another by a
// named field and passes on its Validate's problems. It renames them in
// place, so it is for errors just made, and a message already formatted
// around one (fmt.Errorf) keeps the old name: wrap after nesting. It
// returns err.
func Nest(parent string, err error) error {
	for _, fe := range Fields(err) {
		fe.Field = parent + "." + fe.Field
	}
	return err
}
