// Breaks browser-not-to-server: a value import would bundle server code into the widget.
import { countLeads } from '../server/db/leads-repo.ts';

export const none = () => countLeads([]);
