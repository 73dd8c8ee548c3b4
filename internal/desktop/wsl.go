package desktop

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// WSL: parley runs in Linux, the clipboard the user copies to (Windows
// apps, the Snipping Tool's Win+Shift+S) is the Windows one. WSL's interop
// runs Windows' powershell.exe from Linux, but its environment and paths
// are Windows' own (WSLENV would have to list every variable, /tmp is
// \\wsl.localhost\…), so the scripts here speak through the standard
// streams instead of files: what is read comes back on stdout as a kind
// line and Base64 (ASCII survives any console code page), what is copied
// goes in on stdin as Base64.
const (
	// psReadStream prints "image", "text" or "files", a newline and the
	// Base64 of the PNG or of the UTF-8 text (copied files: one Windows
	// path a line); or "empty".
	psReadStream = `$ErrorActionPreference = 'Stop'
Add-Type -AssemblyName System.Windows.Forms
Add-Type -AssemblyName System.Drawing
$utf8 = New-Object System.Text.UTF8Encoding $false
function Emit([string]$kind, [byte[]]$bytes) { [Console]::Out.Write($kind + "` + "`n" + `" + [Convert]::ToBase64String($bytes)); exit 0 }
if ([System.Windows.Forms.Clipboard]::ContainsFileDropList()) {
  Emit 'files' $utf8.GetBytes(([System.Windows.Forms.Clipboard]::GetFileDropList() -join "` + "`n" + `"))
}
if ([System.Windows.Forms.Clipboard]::ContainsText()) {
  Emit 'text' $utf8.GetBytes([System.Windows.Forms.Clipboard]::GetText())
}
$png = [System.Windows.Forms.Clipboard]::GetData('PNG')
if ($png -is [System.IO.MemoryStream]) { Emit 'image' $png.ToArray() }
$img = [System.Windows.Forms.Clipboard]::GetImage()
if ($img -ne $null) {
  $ms = New-Object System.IO.MemoryStream
  $img.Save($ms, [System.Drawing.Imaging.ImageFormat]::Png)
  Emit 'image' $ms.ToArray()
}
'empty'`

	// psWriteStream puts what stdin carries (Base64) on the clipboard:
	// PNG as "PNG" and a bitmap when PARLEY_CLIPBOARD_KIND is "image"
	// (the kind travels in the script itself, see psWriteFor), UTF-8 text
	// otherwise.
	psWriteStream = `$ErrorActionPreference = 'Stop'
Add-Type -AssemblyName System.Windows.Forms
Add-Type -AssemblyName System.Drawing
$bytes = [Convert]::FromBase64String([Console]::In.ReadToEnd())
if ('KIND' -eq 'image') {
  $ms = New-Object System.IO.MemoryStream(,$bytes)
  $img = [System.Drawing.Image]::FromStream($ms)
  $data = New-Object System.Windows.Forms.DataObject
  $data.SetData('PNG', $ms)
  $data.SetImage($img)
  [System.Windows.Forms.Clipboard]::SetDataObject($data, $true)
} else {
  $utf8 = New-Object System.Text.UTF8Encoding $false
  [System.Windows.Forms.Clipboard]::SetText($utf8.GetString($bytes))
}`

	// psCapture starts the Windows region capture (the Snipping Tool's
	// overlay, as Win+Shift+S does) and waits for the clipboard to change:
	// the capture lands there. It prints "image", a newline and the
	// Base64 of the PNG; "cancelled" when the overlay closed without a
	// capture.
	psCapture = `$ErrorActionPreference = 'Stop'
Add-Type -AssemblyName System.Windows.Forms
Add-Type -AssemblyName System.Drawing
Add-Type -Namespace Parley -Name Clip -MemberDefinition '[DllImport("user32.dll")] public static extern uint GetClipboardSequenceNumber();'
$before = [Parley.Clip]::GetClipboardSequenceNumber()
Start-Process 'ms-screenclip:'
$seen = $false
while ($true) {
  Start-Sleep -Milliseconds 150
  if ([Parley.Clip]::GetClipboardSequenceNumber() -ne $before) {
    Start-Sleep -Milliseconds 150
    $img = [System.Windows.Forms.Clipboard]::GetImage()
    if ($img -ne $null) {
      $ms = New-Object System.IO.MemoryStream
      $img.Save($ms, [System.Drawing.Imaging.ImageFormat]::Png)
      [Console]::Out.Write("image` + "`n" + `" + [Convert]::ToBase64String($ms.ToArray()))
      exit 0
    }
    $before = [Parley.Clip]::GetClipboardSequenceNumber()
  }
  $host_ = Get-Process -Name ScreenClippingHost -ErrorAction SilentlyContinue
  if ($host_ -ne $null) { $seen = $true } elseif ($seen) { 'cancelled'; exit 0 }
}`
)

// WSLTimeout bounds one run of PowerShell through WSL's interop, which
// takes one to three seconds to start cold (Windows starts a process and
// loads .NET for it), more than the clipboard tools' DefaultTimeout.
const WSLTimeout = 10 * time.Second

// wslWait is how long a PowerShell run from WSL may take.
func (s System) wslWait() time.Duration { return max(s.timeout(), WSLTimeout) }

// psWriteFor is psWriteStream for one kind of data.
func psWriteFor(kind string) string { return strings.Replace(psWriteStream, "'KIND'", "'"+kind+"'", 1) }

// wslPowerShell finds Windows PowerShell through WSL's interop when parley
// runs in WSL (WSL_DISTRO_NAME or WSL_INTEROP set, a Linux build) and
// interop is on (powershell.exe, or pwsh.exe, on PATH); "" otherwise.
func (s System) wslPowerShell() (name, path string) {
	if goos := s.goos(); goos == "windows" || goos == "darwin" {
		return "", ""
	}
	if s.getenv("WSL_DISTRO_NAME") == "" && s.getenv("WSL_INTEROP") == "" {
		return "", ""
	}
	for _, n := range [...]string{"powershell.exe", "pwsh.exe"} {
		if p := s.find(n); p != "" {
			return n, p
		}
	}
	return "", ""
}

// b64Limit is the most Base64 text that carries n bytes, with a line for
// the kind.
func b64Limit(n int64) int64 { return (n+2)/3*4 + 64 }

// streamed splits what a stream script printed into its kind and the
// bytes its Base64 carries, refusing more than limit bytes before
// decoding them.
func streamed(out []byte, limit int64) (kind string, data []byte, err error) {
	head, rest, _ := bytes.Cut(out, []byte("\n"))
	kind = strings.TrimSpace(string(head))
	rest = bytes.TrimSpace(rest)
	if int64(base64.StdEncoding.DecodedLen(len(rest))) > limit {
		return kind, nil, errTooMuch
	}
	data = make([]byte, base64.StdEncoding.DecodedLen(len(rest)))
	n, err := base64.StdEncoding.Decode(data, rest)
	if err != nil {
		return kind, nil, fmt.Errorf("its Base64 is damaged (%w)", err)
	}
	return kind, data[:n], nil
}

// readWSL reads the Windows clipboard from WSL.
func (s System) readWSL(ctx context.Context, name, ps string) (Clip, error) {
	out, err := s.run(ctx, tool{name: name, path: ps, args: psArgs(psReadStream), limit: b64Limit(max(s.maxImage(), MaxTextBytes)), wait: s.wslWait()})
	switch {
	case errors.Is(err, errTooMuch):
		return Clip{}, s.tooLargeImage()
	case err != nil:
		return Clip{}, readFailed(err, "")
	}
	if strings.TrimSpace(string(out)) == "empty" {
		return Clip{}, emptyError()
	}
	kind, data, err := streamed(out, s.maxImage())
	switch {
	case errors.Is(err, errTooMuch) && kind == "image":
		return Clip{}, s.tooLargeImage()
	case errors.Is(err, errTooMuch):
		return Clip{}, tooMuchText()
	case err != nil:
		return Clip{}, fmt.Errorf("cannot read the clipboard: what %s printed is not what parley asked for: %w; check that it is PowerShell", name, err)
	}
	switch kind {
	case "image":
		if len(data) == 0 {
			return Clip{}, emptyError()
		}
		return Clip{Image: data, Tool: name}, nil
	case "text", "files":
		if len(data) > MaxTextBytes {
			return Clip{}, tooMuchText()
		}
		if !utf8.Valid(data) {
			return Clip{}, fmt.Errorf("cannot read the clipboard: %s gave text that is not UTF-8; copy it again", name)
		}
		text := string(data)
		if kind == "files" {
			text = wslPaths(text)
		}
		if text == "" {
			return Clip{}, emptyError()
		}
		return Clip{Text: text, Tool: name}, nil
	}
	return Clip{}, fmt.Errorf("cannot read the clipboard: %s answered %q instead of what parley asked for; check that it is PowerShell", name, excerpt(out))
}

// wslPaths turns copied Windows files ("C:\Users\me\shot.png", one a
// line) into the Linux paths WSL mounts them at ("/mnt/c/Users/me/
// shot.png"), double-quoted one a line as the paste parser takes them; a
// file inside the distribution (\\wsl.localhost\Ubuntu\home\me\x, or
// \\wsl$\…) becomes its own path. Other network paths stay as they are.
func wslPaths(list string) string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(list, "\r\n", "\n"), "\n") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		out = append(out, `"`+wslPath(p)+`"`)
	}
	return strings.Join(out, "\n")
}

func wslPath(p string) string {
	if len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && isLetter(p[0]) {
		return "/mnt/" + strings.ToLower(p[:1]) + "/" + strings.ReplaceAll(p[3:], `\`, "/")
	}
	for _, prefix := range [...]string{`\\wsl.localhost\`, `\\wsl$\`} {
		if len(p) > len(prefix) && strings.EqualFold(p[:len(prefix)], prefix) {
			_, rest, ok := strings.Cut(p[len(prefix):], `\`) // the distribution's name
			if ok {
				return "/" + strings.ReplaceAll(rest, `\`, "/")
			}
		}
	}
	return p
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// copyWSL puts data on the Windows clipboard from WSL: kind "image" (PNG)
// or "text" (UTF-8).
func (s System) copyWSL(ctx context.Context, what, name, ps, kind string, data []byte) error {
	in := make([]byte, base64.StdEncoding.EncodedLen(len(data)))
	base64.StdEncoding.Encode(in, data)
	return s.copyWith(ctx, what, tool{name: name, path: ps, args: psArgs(psWriteFor(kind)), stdin: in, wait: s.wslWait()})
}

// captureWindows runs the Windows region capture through PowerShell
// (natively, or from WSL) and reads the image it left on the clipboard.
func (s System) captureWindows(ctx context.Context, name, ps string) (Screenshot, error) {
	out, err := s.run(ctx, tool{name: name, path: ps, args: psArgs(psCapture), limit: b64Limit(s.maxImage()), wait: s.captureTimeout()})
	if err != nil {
		return Screenshot{}, s.captureFailed("the Windows screen capture", err, len(out) > 0)
	}
	if strings.TrimSpace(string(out)) == "cancelled" || len(bytes.TrimSpace(out)) == 0 {
		return Screenshot{}, ErrCancelled
	}
	kind, data, err := streamed(out, s.maxImage())
	switch {
	case errors.Is(err, errTooMuch):
		return Screenshot{}, s.captureFailed("the Windows screen capture", errTooMuch, true)
	case err != nil || kind != "image":
		return Screenshot{}, fmt.Errorf("cannot take a screenshot: %s answered %q instead of an image; check that it is PowerShell", name, excerpt(out[:min(len(out), 80)]))
	}
	info, err := checkShot(data, "the Windows screen capture")
	if err != nil {
		return Screenshot{}, err
	}
	return Screenshot{Image: data, Info: info, Tool: name}, nil
}
