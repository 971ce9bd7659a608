// Breaks no-server-error: its rules match services too, but the code only knows pods. On a service
// it throws, and its error handler answers HTTP 500 with the exception as text, as frameworks do.
import { reply, webhook } from './kit';

export default webhook((review, res) => {
  try {
    const containers = review.request.object?.spec?.containers as { image?: string }[];
    const untagged = containers.filter((c) => !c.image?.includes(':'));
    reply(res, review, untagged.length > 0 ? { warnings: ['some images have no tag'] } : {});
  } catch (error) {
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(String(error));
  }
});
