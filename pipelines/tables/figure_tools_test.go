package tables

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"codeberg.org/go-fonts/liberation/liberationserifregular"

	"github.com/datg/datg/internal/testenv"
)

// requiredTool finds a Debian tool: required when one of envs is set (CI
// sets them where it installed the tool), else the test skips without it.
func requiredTool(t *testing.T, name string, envs ...string) string {
	t.Helper()
	return testenv.Tool(t, []string{name}, "apt-get install poppler-utils", envs...)
}

// runTool runs a tool to its end, or for a minute at most.
func runTool(t *testing.T, path string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, args...).CombinedOutput()
	return string(out), err
}

// The check: the SVG renders the same in Chromium with Liberation
// Serif installed and with no font at all. Each screenshot is taken with
// a fontconfig of its own, so the fonts of the machine play no part.
func TestFigureSVGRendersTheSameWithAnyFonts(t *testing.T) {
	browser := testenv.Chromium(t)
	dir := t.TempDir()
	svg, svgData := filepath.Join(dir, "figure.svg"), drawFigure(t, figureResult())["svg"]
	if err := os.WriteFile(svg, svgData, 0o644); err != nil {
		t.Fatal(err)
	}
	liberation := filepath.Join(dir, "liberation")
	empty := filepath.Join(dir, "nofonts")
	for _, d := range []string{liberation, empty} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(liberation, "LiberationSerif-Regular.ttf"), liberationserifregular.TTF, 0o644); err != nil {
		t.Fatal(err)
	}
	shot := func(name, fontDir string) image.Image {
		t.Helper()
		conf := filepath.Join(dir, name+".conf")
		doc := fmt.Sprintf(`<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>%s</dir><cachedir>%s</cachedir></fontconfig>
`, fontDir, filepath.Join(dir, name+"-cache"))
		if err := os.WriteFile(conf, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, name+".png")
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
			"--user-data-dir="+filepath.Join(dir, name+"-profile"), "--window-size=800,800", "--screenshot="+out, "file://"+svg)
		cmd.Env = append(os.Environ(), "FONTCONFIG_FILE="+conf)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("chromium with %s: %v\n%s", name, err, msg)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	with, without := shot("liberation", liberation), shot("nofonts", empty)
	if with.Bounds() != without.Bounds() {
		t.Fatalf("screenshots of %v and %v", with.Bounds(), without.Bounds())
	}
	// The notes fill the figure's bottom 30 pt, with text only: a Chromium
	// that drew no text would leave them blank (96 px per 72 pt).
	_, h := svgSizePt(t, svgData)
	notesFrom := int((h - 30) * 96 / 72)
	differ, inked := 0, 0
	b := with.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := with.At(x, y).RGBA()
			r2, g2, b2, _ := without.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				differ++
			}
			if y >= notesFrom && float64(y) < h*96/72 && r2 < 0xc000 && g2 < 0xc000 && b2 < 0xc000 {
				inked++
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d pixels differ between Chromium with Liberation Serif and with no font", differ)
	}
	t.Logf("%d inked pixels in the notes", inked)
	if inked < 600 {
		t.Errorf("%d inked pixels in the notes with no font: the texts did not render", inked)
	}
	if os.Getenv("DATG_KEEP_SCREENSHOT") != "" {
		for _, name := range []string{"liberation", "nofonts"} {
			data, _ := os.ReadFile(filepath.Join(dir, name+".png"))
			os.WriteFile(filepath.Join(os.Getenv("DATG_KEEP_SCREENSHOT"), "figure-"+name+".png"), data, 0o644)
		}
	}
}
