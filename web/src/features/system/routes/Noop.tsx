// noop: a public page that shows nothing but keeps the frame.

export { NoopPage as Component } from '../../../components/NoopPage';
