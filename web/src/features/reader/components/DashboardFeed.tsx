// The dashboard's main column for exoreader (SPEC §2 Dashboard): the system
// notifications and the feed list. The app wiring hands it to the dashboard
// (lib/dashboard-slots), so the accounts feature never imports this one.

import { FeedList } from './FeedList';
import { SystemNotifications } from './SystemNotifications';

export default function DashboardFeed({ db }: { db: string }) {
  return (
    <>
      <SystemNotifications db={db} />
      <FeedList db={db} />
    </>
  );
}
