// Package fault is the one error type domain packages return when a request
// must fail with a user-facing reason. Domain code says what went wrong (the
// Kind and the catalogue's reason text); the HTTP layer alone turns a Kind
// into a status code and error name.
package fault

import (
	"errors"
	"fmt"
)

// Kind classifies a failure the way the API reports it.
type Kind int

const (
	Internal         Kind = iota // 500 unknown_error; the reason never reaches the client
	BadRequest                   // 400 bad_request
	Unauthorized                 // 401 unauthorized
	Forbidden                    // 403 forbidden
	NotFound                     // 404 not_found
	Conflict                     // 409 conflict
	Precondition                 // 412 file_exists / precondition_failed
	TooLarge                     // 413 too_large
	UnsupportedMedia             // 415 bad_content_type
	Unprocessable                // 422 unprocessable_entity, with field errors
	TooManyRequests              // 429 too_many_requests
)

// Error is a failure with a reason meant for the user.
type Error struct {
	Kind   Kind
	Reason string
	// Fields holds per-field messages for Unprocessable ("email": ["can't be blank"]).
	Fields map[string][]string
	// RetryAfter, in seconds, for TooManyRequests.
	RetryAfter int
	// Err is the private cause, logged but never sent.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Reason, e.Err)
	}
	return e.Reason
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an error of kind with reason.
func New(kind Kind, reason string) *Error { return &Error{Kind: kind, Reason: reason} }

// Newf formats the reason.
func Newf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Reason: fmt.Sprintf(format, args...)}
}

// Wrap keeps cause as the private error behind a public reason.
func Wrap(kind Kind, reason string, cause error) *Error {
	return &Error{Kind: kind, Reason: reason, Err: cause}
}

// Invalid returns a 422 with field errors; reason summarises them.
func Invalid(fields map[string][]string) *Error {
	return &Error{Kind: Unprocessable, Reason: "Your request failed", Fields: fields}
}

// As extracts an *Error from err's chain.
func As(err error) (*Error, bool) {
	var fe *Error
	ok := errors.As(err, &fe)
	return fe, ok
}

// Messages of the error catalogue (SPEC.md section 8) used in several places.
const (
	MsgPermissionDenied   = "Permission denied"
	MsgConflict           = "Document update conflict."
	MsgConfirmEmailFirst  = "You need to confirm your email to use this feature"
	MsgTokenUsedOrExpired = "Token already used or expired, please request a new one"
	MsgBadCredentials     = "Email or password is incorrect"
	MsgFillEmailPassword  = "Please fill in e-mail and password"
	MsgLoginAgain         = "Please login again"
)

// Field error codes (SPEC.md section 5 generic messages).
const (
	CantBeBlank    = "can't be blank"
	IsInvalid      = "is invalid"
	AlreadyTaken   = "has already been taken"
	MustBeAccepted = "must be accepted"
	DoesNotMatch   = "doesn't match"
	NotInList      = "not in allowed list"
)
