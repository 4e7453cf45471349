// adminnoop: an account route that shows nothing but keeps the frame (used to
// warm a Group's session and as a harmless target).

export { NoopPage as Component } from '../../../components/NoopPage';
