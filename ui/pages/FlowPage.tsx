import { lazy } from 'react';
import type { PageProps } from './registry';
import { formByKey } from '../../machines/forms';
import FlowStepPage from './FlowStepPage';

const ApplyStepPage = lazy(() => import('../flows/apply/ApplyStepPage'));

/** A flow step: the application wizard for forms in the catalogue, else the step's description. */
export default function FlowPage({ route }: PageProps) {
  const definition = route.flow ? formByKey(route.flow.form) : undefined;
  if (definition) return <ApplyStepPage route={route} definition={definition} />;
  return <FlowStepPage route={route} />;
}
