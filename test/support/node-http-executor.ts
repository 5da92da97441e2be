// electron-updater downloads through Electron's net module; under Node (the update tests) it gets
// this executor instead: builder-util-runtime's HttpExecutor over node:http, with the download()
// electron-updater calls, written as its ElectronHttpExecutor's (same request options, same
// doDownload, which checks the SHA-512 electron-updater asks for).
import { request, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { configureRequestOptions, configureRequestUrl, HttpExecutor, type DownloadOptions } from 'builder-util-runtime';

export class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request(options, callback);
  }

  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        { destination, options, onCancel, callback: (error) => (error ? reject(error) : resolve(destination)), responseHandler: null },
        0,
      );
    });
  }
}
