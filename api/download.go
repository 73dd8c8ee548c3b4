package api

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
)

// Download fetches an image a gateway returned as data[].url. The key and
// the extra headers go along only when the URL has the base URL's scheme and
// host; anywhere else (a CDN, signed storage) the request carries no
// credentials, and a redirect from the gateway to elsewhere is followed
// without them. data: URIs are decoded without a request.
func (c *Client) Download(ctx context.Context, rawURL string) ([]byte, error) {
	if strings.HasPrefix(rawURL, "data:") {
		return decodeDataURI(rawURL)
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the gateway returned an image URL parley cannot fetch (%q): only http(s) URLs work", redactURL(rawURL))
	}
	if u.User != nil {
		return nil, fmt.Errorf("the image URL %s carries a user name or password; parley does not fetch it", redactURL(rawURL))
	}
	data, err := c.roundTrip(ctx, &apiRequest{
		method:      "GET",
		url:         u.String(),
		credentials: c.sameOrigin(u),
		download:    true,
	}, maxImageBody)
	if err != nil {
		return nil, fmt.Errorf("downloading the generated image from %s: %w", origin(u), err)
	}
	return data, nil
}

// decodeDataURI reads "data:<type>;base64,<data>".
func decodeDataURI(uri string) ([]byte, error) {
	meta, payload, ok := strings.Cut(strings.TrimPrefix(uri, "data:"), ",")
	if !ok || !strings.HasSuffix(meta, ";base64") {
		return nil, fmt.Errorf("the gateway returned a data URI that is not base64")
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return nil, fmt.Errorf("the gateway returned a data URI with invalid base64: %w", err)
	}
	return data, nil
}
