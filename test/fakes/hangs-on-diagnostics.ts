/** A fake server whose diagnostics never come: an edit's --verify cannot finish, and must not say it did. */
import { serve } from './base';

serve({ diagnosticsHang: true });
