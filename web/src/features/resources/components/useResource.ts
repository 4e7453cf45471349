import { useParams } from 'react-router';
import { useRouteHandle } from '../../../lib/route-handle';
import { resourceFor, type ResourceDef } from '../registry';

/** useResource: the route's set definition, account db and record id. */
export function useResource(): { def: ResourceDef; db: string; id: string } {
  const handle = useRouteHandle();
  const { account_id = '', record_id = '' } = useParams();
  return { def: resourceFor(handle.set ?? ''), db: account_id, id: record_id };
}
