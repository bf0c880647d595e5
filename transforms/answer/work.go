package answer

// scannedBytes counts the bytes the extraction's scanners read, when a test
// points it at a counter (it is nil otherwise): tests compare the count on
// texts of n and 4n bytes to check that extracting an answer stays linear
// in the text, which a timed assertion could not.
var scannedBytes *int

// scanned adds n bytes read to the count, if one is kept.
func scanned(n int) {
	if scannedBytes != nil {
		*scannedBytes += n
	}
}
