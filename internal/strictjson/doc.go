// Package strictjson reads JSON documents that a user wrote (config files,
// import records) strictly: exactly one value, no key given twice in any
// object, no unknown fields, and every problem reported with its line.
//
// encoding/json accepts both mistakes silently: its Decoder stops after the
// first value, so a second object in a config file is ignored, and a
// repeated key keeps the last value. Check walks the document's tokens with
// a json.Decoder to catch them before the document is decoded.
//
// CheckUnicode refuses, likewise before decoding, a string that is not
// Unicode text (bytes that are not UTF-8, an unpaired surrogate escape),
// which encoding/json would turn into U+FFFD without a word.
package strictjson
