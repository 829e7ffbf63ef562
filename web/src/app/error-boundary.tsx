import { Component, type ReactNode } from 'react';

interface Props {
  fallback: ReactNode;
  /** When this changes (the page moved), the boundary renders its children again. */
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  failed: boolean;
  failedAt?: unknown;
}

/** Shows `fallback` instead of a subtree that threw while rendering (React logs the error itself). */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (!state.failed) return state.failedAt === props.resetKey ? null : { failedAt: props.resetKey };
    return state.failedAt === props.resetKey ? null : { failed: false, failedAt: props.resetKey };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
