package desktop

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"
)

// The PowerShell scripts parley runs. Paths and data never appear in a
// script: they travel in environment variables and files, so no quoting
// rule of PowerShell or cmd.exe can be got wrong, and the script is passed
// as -EncodedCommand. They use System.Windows.Forms.Clipboard, which works
// in Windows PowerShell and PowerShell 7 alike (Get-Clipboard -Format Image
// exists only in the former), and needs a single-threaded apartment (-STA).
const (
	// psRead prints what it found ("text", "image" or "empty") and writes
	// it to the file named by PARLEY_CLIPBOARD_TEXT or _IMAGE. Copied files
	// come back as text, one double-quoted path a line; the "PNG" format
	// (kept by browsers and Office, with transparency) is preferred over
	// the bitmap every screenshot tool offers.
	psRead = `$ErrorActionPreference = 'Stop'
Add-Type -AssemblyName System.Windows.Forms
Add-Type -AssemblyName System.Drawing
$utf8 = New-Object System.Text.UTF8Encoding $false
if ([System.Windows.Forms.Clipboard]::ContainsFileDropList()) {
  $paths = [System.Windows.Forms.Clipboard]::GetFileDropList() | ForEach-Object { '"' + $_ + '"' }
  [System.IO.File]::WriteAllText($env:PARLEY_CLIPBOARD_TEXT, ($paths -join "` + "`n" + `"), $utf8)
  'text'; exit 0
}
if ([System.Windows.Forms.Clipboard]::ContainsText()) {
  [System.IO.File]::WriteAllText($env:PARLEY_CLIPBOARD_TEXT, [System.Windows.Forms.Clipboard]::GetText(), $utf8)
  'text'; exit 0
}
$png = [System.Windows.Forms.Clipboard]::GetData('PNG')
if ($png -is [System.IO.MemoryStream]) {
  [System.IO.File]::WriteAllBytes($env:PARLEY_CLIPBOARD_IMAGE, $png.ToArray())
  'image'; exit 0
}
$img = [System.Windows.Forms.Clipboard]::GetImage()
if ($img -ne $null) {
  $img.Save($env:PARLEY_CLIPBOARD_IMAGE, [System.Drawing.Imaging.ImageFormat]::Png)
  $img.Dispose()
  'image'; exit 0
}
'empty'`

	// psWrite puts the PNG file named by PARLEY_CLIPBOARD_IMAGE on the
	// clipboard as "PNG" (keeps transparency) and as a bitmap (what most
	// apps paste), and keeps it there after PowerShell exits.
	psWrite = `$ErrorActionPreference = 'Stop'
Add-Type -AssemblyName System.Windows.Forms
Add-Type -AssemblyName System.Drawing
$bytes = [System.IO.File]::ReadAllBytes($env:PARLEY_CLIPBOARD_IMAGE)
$ms = New-Object System.IO.MemoryStream(,$bytes)
$img = [System.Drawing.Image]::FromStream($ms)
$data = New-Object System.Windows.Forms.DataObject
$data.SetData('PNG', $ms)
$data.SetImage($img)
[System.Windows.Forms.Clipboard]::SetDataObject($data, $true)`

	// psWriteText puts the UTF-8 text of the file named by
	// PARLEY_CLIPBOARD_TEXT on the clipboard (SetText keeps it there after
	// PowerShell exits).
	psWriteText = `$ErrorActionPreference = 'Stop'
Add-Type -AssemblyName System.Windows.Forms
$utf8 = New-Object System.Text.UTF8Encoding $false
[System.Windows.Forms.Clipboard]::SetText([System.IO.File]::ReadAllText($env:PARLEY_CLIPBOARD_TEXT, $utf8))`

	// psOpen opens the file named by PARLEY_OPEN_PATH with its default app.
	psOpen = `$ErrorActionPreference = 'Stop'
Start-Process -FilePath $env:PARLEY_OPEN_PATH`
)

// psArgs are PowerShell's arguments for a script: no profile (fast, and no
// user script in between), no prompts, and the script encoded as UTF-16LE
// Base64, the form -EncodedCommand takes.
func psArgs(script string) []string {
	u := utf16.Encode([]rune(script))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		binary.LittleEndian.PutUint16(b[2*i:], c)
	}
	return []string{"-NoProfile", "-NonInteractive", "-STA", "-EncodedCommand", base64.StdEncoding.EncodeToString(b)}
}

func psMissing(what string) error {
	return newError(ErrNoTool, "cannot "+what+": PowerShell (powershell.exe) was not found on PATH; it comes with Windows, so check PATH")
}

func (s System) readWindows(ctx context.Context) (Clip, error) {
	name, ps := s.powershell()
	if ps == "" {
		return Clip{}, psMissing("read the clipboard")
	}
	dir, err := os.MkdirTemp("", "parley-clipboard-")
	if err != nil {
		return Clip{}, fmt.Errorf("cannot read the clipboard: making a temporary folder failed (%w)", err)
	}
	defer os.RemoveAll(dir)
	textFile, imageFile := filepath.Join(dir, "clipboard.txt"), filepath.Join(dir, "clipboard.png")
	out, err := s.run(ctx, tool{
		name: name, path: ps, args: psArgs(psRead), limit: stderrKeep,
		env: []string{"PARLEY_CLIPBOARD_TEXT=" + textFile, "PARLEY_CLIPBOARD_IMAGE=" + imageFile},
	})
	if err != nil {
		return Clip{}, readFailed(err, "")
	}
	switch what := strings.TrimSpace(string(out)); what {
	case "text":
		b, err := readCapped(textFile, MaxTextBytes)
		switch {
		case errors.Is(err, errTooMuch):
			return Clip{}, tooMuchText()
		case err != nil:
			return Clip{}, fmt.Errorf("cannot read the clipboard: %w", err)
		case len(b) == 0:
			return Clip{}, emptyError()
		}
		return Clip{Text: string(b), Tool: name}, nil
	case "image":
		b, err := readCapped(imageFile, s.maxImage())
		switch {
		case errors.Is(err, errTooMuch):
			return Clip{}, s.tooLargeImage()
		case err != nil:
			return Clip{}, fmt.Errorf("cannot read the clipboard: %w", err)
		case len(b) == 0:
			return Clip{}, emptyError()
		}
		return Clip{Image: b, Tool: name}, nil
	case "empty":
		return Clip{}, emptyError()
	default:
		return Clip{}, fmt.Errorf("cannot read the clipboard: %s answered %q instead of what parley asked for; check that it is PowerShell", name, excerpt(out))
	}
}
