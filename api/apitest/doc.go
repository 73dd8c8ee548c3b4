// Package apitest is the fake gateway of package api/fake for tests: New
// starts one per test and closes it when the test ends, every request is
// logged with its decoded body (Requests, RequestsTo, LastRequest), and
// Client is an HTTP client of the server's own. The fake's types, options
// and constants are here under the same names, so a test needs only this
// package. What the fake answers, and how a Reply scripts it, is described
// in package fake.
//
//	func TestRetryAfter429(t *testing.T) {
//		gw := apitest.New(t)
//		gw.Enqueue(
//			apitest.Reply{Status: 429, Header: map[string]string{"Retry-After": "0"}},
//			apitest.Reply{Text: "Hello!"},
//		)
//		// ... point the client at gw.URL() with key apitest.DefaultAPIKey ...
//		if reqs := gw.RequestsTo("/chat/completions"); len(reqs) != 2 {
//			t.Fatalf("...")
//		}
//	}
//
// parley's binary never links this package (it links testing); the
// built-in demo serves package fake.
package apitest
